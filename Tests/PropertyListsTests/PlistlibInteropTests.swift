// SeedKit's binary property lists checked by an independent implementation: tools/plistlib_check.py
// has Python's plistlib read each file SeedKit wrote and write it again; the bytes must be the
// same, which shows that plistlib read every value as written and that the layout (object order,
// sharing, widths) is the one plistlib and Core Foundation use. Runs where python3 is installed.
import Foundation
import PropertyLists
import Testing
import TestSupport

@Suite struct PlistlibInteropTests {
    static let repository = Repository.root
    static let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Values covering every type, widths, long counts, UTF-16, shared scalars and UIDs.
    static let values: [String: PropertyListValue] = [
        "metadata": CoreDataMetadataTests.metadata,
        "scalars": [
            "true": true, "false": false, "zero": 0, "byte": 255, "short": 65_535, "int": 4_294_967_295,
            "long": .integer(Int64.max), "negative": -1, "minimum": .integer(Int64.min), "real": 2.5,
            "tiny": .real(.leastNonzeroMagnitude), "infinite": .real(.infinity),
            "date": .date(Date(timeIntervalSinceReferenceDate: 86_400)),
            "before2001": .date(Date(timeIntervalSinceReferenceDate: -978_307_200)), "empty": .data(Data()),
            "bytes": .data(Data((0..<200).map { UInt8($0) })), "ascii": "plain", "utf16": "Crème brûlée 😀",
            "long string": .string(String(repeating: "x", count: 300)),
        ],
        "shared": ["a", "a", 7, 7, 2.5, 2.5, true, true, ["a"], ["a"], ["k": "a"]],
        "wide": .array((0..<400).map { .string("item \($0 % 350)") }),
        "deep": [[[[[[[[[["bottom"]]]]]]]]]],
        "archive": [
            "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(1)],
            "$objects": [
                "$null", ["NSVariable": .uid(2), "$class": .uid(3)], "source", ["$classname": "NSVariableExpression"],
            ],
        ],
    ]

    @Test(.enabled(if: python != nil, "python3 is not installed"))
    func plistlibReadsAndRewritesTheSameBytes() throws {
        let directory = URL(fileURLWithPath: try ScratchFolder.make("plistlib"))
        defer { try? FileManager.default.removeItem(at: directory) }
        var paths: [String] = []
        for (name, value) in Self.values.sorted(by: { $0.key < $1.key }) {
            let file = directory.appendingPathComponent("\(name).bplist")
            try BinaryPropertyListWriter().write(value).write(to: file)
            paths.append(file.path)
        }
        let result = try ChildProcess.run(
            URL(fileURLWithPath: try #require(Self.python)), [Repository.path("tools/plistlib_check.py")] + paths)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines == paths.map { "SAME \($0)" })
        #expect(result.status == 0, "\(result.stderr)")
    }
}
