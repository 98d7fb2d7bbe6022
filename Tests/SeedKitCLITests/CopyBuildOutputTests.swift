// What `seedkit copy` and `seedkit build` print (docs/CLI.md): `--json` reports with `entities`
// (inserted, updated, unchanged, rejected per entity), `errors` and `seconds` at the top level;
// plain progress lines on standard error when it is not a terminal; nothing with `--quiet`; and a
// failed copy into a new store leaves no file behind.
import Foundation
import Testing

@Suite struct CopyBuildOutputTests {
    /// The sample catalog folder with `Catalog.sqlite` imported (5 items, 3 tags, 2 lists).
    static func catalog() throws -> String {
        let folder = try ExitCodeTests.sampleFolder()
        let imported = try CLIProcess.run(["import", "catalog-csv.yaml", "--quiet"], in: folder)
        #expect(imported.status == 0, "\(imported.stderr)")
        return folder
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    static func storeFiles(_ path: String) -> [String] {
        ["", "-wal", "-shm", "-journal"].map { path + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
    }

    @Test func copyJSONCarriesTheReportKeysWithRealCounts() throws {
        let folder = try Self.catalog()
        let copied = try CLIProcess.run(
            ["copy", "--from", "Catalog.sqlite", "--to", "Copy.sqlite", "--json"], in: folder)
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(copied.stderr.isEmpty)
        let report = try Self.json(copied.stdout)
        let entities = try #require(report["entities"] as? [String: [String: Int]])
        #expect(
            entities["Item"] == [
                "inserted": 5, "updated": 0, "unchanged": 0, "rejected": 0, "copied": 5, "matched": 0, "skipped": 0,
            ])
        #expect(entities["Tag"]?["inserted"] == 3 && entities["ShoppingList"]?["inserted"] == 2)
        #expect((report["errors"] as? [Any])?.isEmpty == true)
        #expect(report["seconds"] as? Double != nil)

        let merged = try CLIProcess.run(
            ["copy", "--from", "Catalog.sqlite", "--to", "Copy.sqlite", "--json"], in: folder)
        let again = try #require(try Self.json(merged.stdout)["entities"] as? [String: [String: Int]])
        #expect(again["Item"]?["inserted"] == 0 && again["Item"]?["unchanged"] == 5 && again["Item"]?["matched"] == 5)
        #expect(again["Item"]?["rejected"] == 0 && again["Item"]?["updated"] == 0)
    }

    @Test func copyIsQuietWithQuietAndPrintsPlainProgressWithoutATerminal() throws {
        let folder = try Self.catalog()
        let quiet = try CLIProcess.run(
            ["copy", "--from", "Catalog.sqlite", "--to", "Quiet.sqlite", "--quiet"], in: folder)
        #expect(quiet.status == 0)
        #expect(quiet.stdout.isEmpty && quiet.stderr.isEmpty)

        let plain = try CLIProcess.run(["copy", "--from", "Catalog.sqlite", "--to", "Plain.sqlite"], in: folder)
        #expect(plain.status == 0, "\(plain.stderr)")
        let lines = plain.stderr.split(separator: "\n").map(String.init)
        #expect(!lines.isEmpty && !plain.stderr.contains("\r"))
        #expect(lines.allSatisfy { $0.hasPrefix("copying ") || $0.hasPrefix("done: ") })
        #expect(lines.first?.hasPrefix("copying ") == true)
        let last = try #require(lines.last)
        let total = try #require(last.split(separator: " ").dropFirst().first.flatMap { Int($0) })
        #expect(last.hasPrefix("done: \(total) of \(total) rows, ") && last.hasSuffix("/s, 100%"))
        #expect(total >= 5 + 3 + 2)
        #expect(plain.stdout.contains("Item: 5 copied") && plain.stdout.contains("copied into Plain.sqlite"))
    }

    @Test func aFailedCopyIntoANewStoreLeavesNoFile() throws {
        let folder = try Self.catalog()
        let failures: [[String]] = [
            ["--where", "Nope: price < 2"],
            ["--where", "Item: price <"],
            ["--where", "Item: nosuch > 1"],
            ["--entities", "Item,Nope"],
            ["--key", "Nope: name"],
        ]
        for flags in failures {
            let failed = try CLIProcess.run(
                ["copy", "--from", "Catalog.sqlite", "--to", "New.sqlite"] + flags, in: folder)
            #expect(failed.status == 1, "\(flags)")
            #expect(failed.stderr.hasPrefix("seedkit: ") && failed.stderr.split(separator: "\n").count == 1)
            #expect(Self.storeFiles(folder + "/New.sqlite").isEmpty, "\(flags)")
        }
        for key in ["Item:", "Item: ,", "Item"] {
            let usage = try CLIProcess.run(
                ["copy", "--from", "Catalog.sqlite", "--to", "New.sqlite", "--key", key], in: folder)
            #expect(usage.status == 2, "\(key)")
        }
        let json = try CLIProcess.run(
            ["copy", "--from", "Catalog.sqlite", "--to", "New.sqlite", "--entities", "Nope", "--json"], in: folder)
        #expect(json.status == 1)
        let report = try Self.json(json.stdout)
        let errors = try #require(report["errors"] as? [[String: String]])
        #expect(errors.count == 1 && errors[0]["message"]?.contains("Nope") == true)
        #expect((report["entities"] as? [String: Any])?.isEmpty == true && report["seconds"] as? Double != nil)
        #expect(Self.storeFiles(folder + "/New.sqlite").isEmpty)
    }

    @Test func buildJSONCarriesTheReportKeysAtTheTopLevel() throws {
        let folder = try ExitCodeTests.sampleFolder()
        let built = try CLIProcess.run(["build", "catalog-csv.yaml", "-o", "Seed.sqlite", "--json"], in: folder)
        #expect(built.status == 0, "\(built.stderr)")
        let report = try Self.json(built.stdout)
        #expect(report["build"] == nil)
        let entities = try #require(report["entities"] as? [String: [String: Int]])
        #expect(entities["Item"] == ["inserted": 5, "updated": 0, "unchanged": 0, "rejected": 0])
        #expect(entities["ShoppingList"]?["inserted"] == 2)
        #expect((report["errors"] as? [Any])?.isEmpty == true && report["seconds"] as? Double != nil)
        #expect((report["path"] as? String)?.hasSuffix("Seed.sqlite") == true)
        #expect((report["checksum"] as? String)?.count == 64)

        let quiet = try CLIProcess.run(["build", "catalog-csv.yaml", "-o", "Quiet.sqlite", "--quiet"], in: folder)
        #expect(quiet.status == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty)

        // Not a terminal: plain progress lines on standard error, ending with the last phase.
        let plain = try CLIProcess.run(["build", "catalog-csv.yaml", "-o", "Plain.sqlite"], in: folder)
        #expect(plain.status == 0, "\(plain.stderr)")
        let lines = plain.stderr.split(separator: "\n").map(String.init)
        #expect(!plain.stderr.contains("\r"))
        #expect(lines.first?.hasPrefix("reading items.csv: ") == true)
        #expect(lines.last?.hasPrefix("done: 7 records") == true)
        #expect(plain.stdout.contains("built Plain.sqlite"))
    }
}
