// `seedkit diff` in bounded memory: two generated stores of 60,000 objects (the copy with one
// price changed) compare as different with exactly that difference, and the diff process's peak
// resident set stays within a few megabytes of `seedkit inspect`'s on the same store (holding both
// graphs in memory, as the diff once did, took ~110 MB over that at 200,000 items, and grew with them).
import Foundation
import GraphStore
import Testing
import TestSupport

@Suite struct DiffMemoryTests {
    /// What a finished child process left: exit status, peak resident set in KiB, and output.
    struct Finished {
        let status: Int32
        let peakKiB: Int
        let stdout: String
        let stderr: String
    }

    /// Runs `seedkit` with `arguments` and samples its peak resident set (`VmHWM` in
    /// /proc/PID/status: the high-water mark of the process image since its exec, unlike the
    /// rusage of a child, which counts the parent's memory at the fork) until it exits.
    static func measure(_ arguments: [String], in directory: String) throws -> Finished {
        let process = try CLIProcess.start(arguments, in: directory)
        let status = "/proc/\(process.processIdentifier)/status"
        var peak = 0
        while process.isRunning {
            if let text = try? String(contentsOfFile: status, encoding: .utf8),
                let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                let kib = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap({
                    Int($0)
                })
            {
                peak = max(peak, kib)
            }
            usleep(5000)
        }
        let stdout = (process.standardOutput as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        let stderr = (process.standardError as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        process.waitUntilExit()
        return Finished(
            status: process.terminationStatus, peakKiB: peak, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    static func model() throws -> ObjectModel {
        try ModelBuilder("Scale")
            .entity("Unit") { unit in
                unit.attribute("name", .string, optional: false)
                unit.toMany("items", "Item", inverse: "unit")
                unit.unique("name")
            }
            .entity("Item") { item in
                item.attribute("sku", .string, optional: false)
                item.attribute("price", .double)
                item.attribute("note", .string)
                item.toOne("unit", "Unit", inverse: "items")
                item.unique("sku")
            }
            .build()
    }

    @Test func diffOfTwoLargeStoresStaysSmall() throws {
        let folder = URL(fileURLWithPath: try ScratchFolder.make("seedkit-diff-memory"))
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let store = try PersistentStore.open(
                at: folder.appendingPathComponent("A.sqlite").path, model: Self.model())
            let context = try ObjectContext(store: store)
            var units: [ManagedObject] = []
            for number in 0..<50 {
                let unit = try context.insert("Unit")
                try unit.set("name", "u-\(number)")
                units.append(unit)
            }
            for number in 0..<60_000 {
                let item = try context.insert("Item")
                try item.set("sku", String(format: "I-%06d", number))
                try item.set("price", Double(number) / 4)
                try item.set("note", "item number \(number) of the generated catalogue")
                try item.setRelated("unit", to: units[number % units.count])
                if number % 10_000 == 9_999 { try context.save() }
            }
            try context.save()
        }
        let copied = try CLIProcess.run(["copy", "--from", "A.sqlite", "--to", "B.sqlite", "--quiet"], in: folder.path)
        #expect(copied.status == 0, "\(copied.stderr)")
        do {
            let store = try PersistentStore.open(at: folder.appendingPathComponent("B.sqlite").path)
            let context = try ObjectContext(store: store)
            let item = try #require(
                try context.fetch(FetchRequest(entityName: "Item", predicate: .key("sku") == "I-031415")).first)
            try item.set("price", 0.5)
            try context.save()
        }

        let first = folder.appendingPathComponent("A.sqlite").path
        let second = folder.appendingPathComponent("B.sqlite").path
        let inspect = try Self.measure(["inspect", first], in: folder.path)
        #expect(inspect.peakKiB > 0)
        #expect(inspect.status == 0, "\(inspect.stderr)")
        let diff = try Self.measure(["diff", first, second], in: folder.path)
        #expect(diff.status == 1, "\(diff.stderr)")
        #expect(diff.stdout == "Item[I-031415].price: 7853.75 ≠ 0.5\n")
        #expect(diff.stderr == "seedkit: the stores differ (1 difference)\n")
        #expect(diff.peakKiB - inspect.peakKiB < 24 * 1024, "diff \(diff.peakKiB) KiB, inspect \(inspect.peakKiB) KiB")
    }
}
