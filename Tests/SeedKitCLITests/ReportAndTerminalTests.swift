// What `seedkit import` tells its user: records read and refused per source, objects per entity
// (a source of join records counts its records, and the few objects they change as objects),
// and, on a terminal, error lines that start and end lines of their own after a progress bar.
import Foundation
import Testing

@Suite struct ReportAndTerminalTests {
    /// A catalog folder with the catalog imported and a source of (list, item) pairs adding members.
    static func pairsFolder() throws -> String {
        let folder = try ExitCodeTests.sampleFolder()
        let imported = try CLIProcess.run(["import", "catalog-csv.yaml", "--quiet"], in: folder)
        #expect(imported.status == 0, "\(imported.stderr)")
        try Data("code,item\nL-1,A-002\nL-1,A-004\nL-2,A-001\nL-2,A-003\nL-2,A-009\nL-1,A-005\n".utf8)
            .write(to: URL(fileURLWithPath: folder + "/pairs.csv"))
        try Data(
            """
            model: Catalog.yaml
            store: Catalog.sqlite
            onError: skip
            sources:
              - file: pairs.csv
                entity: ShoppingList
                key: [code]
                attributes: {code: code}
                relationships:
                  items: {field: item, match: sku, missing: reject}
            """.utf8
        ).write(to: URL(fileURLWithPath: folder + "/pairs.yaml"))
        return folder
    }

    @Test func joinRecordsCountAsRecordsReadAndTheirOwnersAsUpdatedObjects() throws {
        let folder = try Self.pairsFolder()
        let imported = try CLIProcess.run(["import", "pairs.yaml"], in: folder)
        #expect(imported.status == 0, "\(imported.stderr)")
        let lines = imported.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "pairs.csv → ShoppingList: 6 records read, 1 rejected")
        #expect(lines.contains("ShoppingList: 0 inserted, 2 updated, 0 unchanged, 1 rejected"))
        #expect(lines.contains { $0.hasPrefix("rejected: pairs.csv:6:") && $0.contains("A-009") })
        #expect(lines.last?.hasPrefix("6 records read, 1 rejected; imported into Catalog.sqlite in ") == true)

        let json = try CLIProcess.run(["import", "pairs.yaml", "--json", "--dry-run"], in: folder)
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json.stdout)")
        #expect(report["records"] as? Int == 6)
        #expect(report["rejected"] as? Int == 1)
        let sources = try #require(report["sources"] as? [[String: Any]])
        #expect(sources.count == 1)
        #expect(sources.first?["file"] as? String == "pairs.csv")
        #expect(sources.first?["entity"] as? String == "ShoppingList")
        #expect(sources.first?["records"] as? Int == 6)
        #expect(sources.first?["rejected"] as? Int == 1)
    }

    #if os(Linux)
        /// Runs seedkit under a pseudo-terminal (util-linux `script`), returning what the terminal got.
        static func onTerminal(_ arguments: [String], in folder: String) throws -> (status: Int32, screen: String)? {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return nil }
            let command = ([CLIProcess.executable("seedkit").path] + arguments).map { "'\($0)'" }.joined(separator: " ")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            process.arguments = ["-qec", command, "/dev/null"]
            process.currentDirectoryURL = URL(fileURLWithPath: folder)
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self))
        }

        @Test func anErrorAfterAProgressBarStartsAndEndsItsOwnLine() throws {
            let folder = try ExitCodeTests.sampleFolder()
            try Data("sku,name,price\nA-1,Apples,1\nA-2,Pears,2\nA-3,Plums,12x\n".utf8)
                .write(to: URL(fileURLWithPath: folder + "/bad.csv"))
            try Data(
                """
                model: Catalog.yaml
                store: Bad.sqlite
                batchSize: 1
                sources:
                  - {file: bad.csv, entity: Item, key: sku, attributes: {sku: sku, name: name, price: price}}
                """.utf8
            ).write(to: URL(fileURLWithPath: folder + "/bad.yaml"))
            guard let (status, screen) = try Self.onTerminal(["import", "bad.yaml"], in: folder) else { return }
            #expect(status == 1)
            // The bar was drawn, then ended by a newline before the error line, which ends with one.
            #expect(screen.contains("] reading bad.csv: 2 records, "), "\(screen)")
            #expect(
                screen.hasSuffix(
                    "\u{1B}[K\r\nseedkit: bad.csv:4:11 (byte 50, record 3) field price: \"12x\" is not a number\r\n"),
                "\(screen)")

            // No bar drawn: the error line alone, with no blank line before it.
            let (otherStatus, alone) = try #require(try Self.onTerminal(["import", "missing.yaml"], in: folder))
            #expect(otherStatus == 1)
            #expect(
                alone.hasPrefix("seedkit: ") && alone.hasSuffix("\r\n")
                    && alone.components(separatedBy: "\r\n").count == 2, "\(alone)")
        }
    #endif
}
