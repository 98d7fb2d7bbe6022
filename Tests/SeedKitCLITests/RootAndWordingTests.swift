// The audit's CLI gaps: a bare `seedkit` is a usage error (exit 2, the reason then the help on
// stderr) while `--help` and `--version` exit 0; `seedkit model` recognises a store by SQLite's
// header whatever the file is called; counts of one read "1 record", "1 object", "1 attribute".
import Foundation
import Testing
import TestSupport

@Suite struct RootCommandTests {
    @Test func aBareSeedkitIsAUsageErrorWithTheHelpOnStderr() throws {
        let bare = try CLIProcess.run([])
        #expect(bare.status == 2)
        #expect(bare.stdout.isEmpty)
        let lines = bare.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "Error: Missing expected subcommand.")
        #expect(bare.stderr.contains("USAGE: seedkit <subcommand>"))
        for command in ["build", "import", "copy", "diff", "inspect", "export", "model", "check"] {
            #expect(bare.stderr.contains("\n  \(command) "), "\(command)")
        }
        #expect(bare.stderr.hasSuffix("\n"))
    }

    @Test func helpAndVersionStillExit0OnStdout() throws {
        let help = try CLIProcess.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stderr.isEmpty)
        #expect(help.stdout.contains("USAGE: seedkit <subcommand>"))
        let version = try CLIProcess.run(["--version"])
        #expect(version.status == 0)
        #expect(!version.stdout.isEmpty && version.stderr.isEmpty)
        #expect(try CLIProcess.run(["help"]).status == 0)
    }
}

@Suite struct ModelStoreDetectionTests {
    /// A folder with the catalog sample and a store built from it at `name`.
    static func builtStore(named name: String) throws -> String {
        let folder = try ExitCodeTests.sampleFolder()
        let built = try CLIProcess.run(["build", "catalog-csv.yaml", "-o", "Seed.sqlite", "--quiet"], in: folder)
        #expect(built.status == 0, "\(built.stderr)")
        try FileManager.default.moveItem(atPath: folder + "/Seed.sqlite", toPath: folder + "/" + name)
        return folder
    }

    @Test(arguments: ["seedstore.bin", "Seed", "catalog.data", "Seed.SQLITE"])
    func aStoreIsRecognisedByItsHeaderWhateverItsName(_ name: String) throws {
        let folder = try Self.builtStore(named: name)
        let fromModel = try ModelCommandTests.json(
            try CLIProcess.run(["model", "Catalog.yaml", "--json"], in: folder).stdout)
        let result = try CLIProcess.run(["model", name, "--json"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let stored = try ModelCommandTests.json(result.stdout)
        #expect(stored["name"] as? String == "Catalog")
        #expect(stored["hash"] as? String == fromModel["hash"] as? String)
        let text = try CLIProcess.run(["model", name], in: folder)
        #expect(text.status == 0 && text.stdout.hasPrefix("model Catalog (5 entities) hash "))
    }

    @Test func aFileThatIsNeitherAModelNorAStoreExits1OnOneLine() throws {
        let folder = try ExitCodeTests.sampleFolder()
        try Data("just some bytes, not SQLite format 3".utf8).write(to: URL(fileURLWithPath: folder + "/seedstore.bin"))
        let unknown = try CLIProcess.run(["model", "seedstore.bin"], in: folder)
        #expect(unknown.status == 1)
        #expect(unknown.stderr.hasPrefix("seedkit: ") && unknown.stderr.contains("unknown model format"))
        #expect(unknown.stderr.split(separator: "\n").count == 1)
        // A file with a store's extension that is no SQLite file: a store error, still one line.
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: folder + "/Fake.sqlite"))
        let fake = try CLIProcess.run(["model", "Fake.sqlite"], in: folder)
        #expect(fake.status == 1)
        #expect(fake.stderr.hasPrefix("seedkit: ") && fake.stderr.split(separator: "\n").count == 1)
        // A file shorter than the header is no store either.
        try Data("SQLite".utf8).write(to: URL(fileURLWithPath: folder + "/short"))
        let short = try CLIProcess.run(["model", "short"], in: folder)
        #expect(short.status == 1 && short.stderr.contains("unknown model format"))
    }
}

@Suite struct CountWordingTests {
    /// A folder with a one-entity model, a one-record CSV file and a plan importing it.
    static func oneRecordFolder() throws -> String {
        let folder = try ScratchFolder.make("seedkit-one")
        let model = """
            name: One
            entities:
              Thing:
                attributes: {code: {type: string, optional: false}}
                relationships:
                  next: {destination: Thing}
                unique: [[code]]
            """
        try Data(model.utf8).write(to: URL(fileURLWithPath: folder + "/One.yaml"))
        try Data("code\nA\n".utf8).write(to: URL(fileURLWithPath: folder + "/things.csv"))
        let plan = """
            model: One.yaml
            store: One.sqlite
            sources:
              - file: things.csv
                entity: Thing
                key: [code]
                attributes: {code: code}
            """
        try Data(plan.utf8).write(to: URL(fileURLWithPath: folder + "/plan.yaml"))
        return folder
    }

    @Test func oneOfAnythingIsSingular() throws {
        let folder = try Self.oneRecordFolder()
        let imported = try CLIProcess.run(["import", "plan.yaml"], in: folder)
        #expect(imported.status == 0, "\(imported.stderr)")
        let lines = imported.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("Thing: 1 inserted, 0 updated, 0 unchanged, 0 rejected"))
        #expect(lines.last?.hasPrefix("1 record read, 0 rejected; imported into ") == true, "\(imported.stdout)")
        // Progress on a pipe: plain lines, the last one for the finished run.
        #expect(imported.stderr.contains("done: 1 record, "), "\(imported.stderr)")
        #expect(!imported.stderr.contains("1 records"))

        let dryRun = try CLIProcess.run(["import", "plan.yaml", "--dry-run", "--quiet"], in: folder)
        #expect(dryRun.status == 0 && dryRun.stdout.isEmpty)

        let inspected = try CLIProcess.run(["inspect", "One.sqlite"], in: folder)
        #expect(inspected.status == 0, "\(inspected.stderr)")
        #expect(inspected.stdout.contains("\n  Thing: 1 object\n"), "\(inspected.stdout)")

        let model = try CLIProcess.run(["model", "One.yaml"], in: folder)
        #expect(model.stdout.hasPrefix("model One (1 entity) hash "))
        #expect(model.stdout.contains("  Thing — 1 attribute, 1 relationship, unique [code]\n"), "\(model.stdout)")
    }

    @Test func otherCountsArePlural() throws {
        let folder = try ExitCodeTests.sampleFolder()
        let imported = try CLIProcess.run(["import", "catalog-csv.yaml"], in: folder)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(
            imported.stdout.split(separator: "\n").last?.hasPrefix("7 records read, 0 rejected; imported into ") == true
        )
        let inspected = try CLIProcess.run(["inspect", "Catalog.sqlite"], in: folder)
        #expect(inspected.stdout.contains("\n  Item: 5 objects\n"))
        let empty = URL(fileURLWithPath: try ScratchFolder.make("seedkit-zero"))
        let model = """
            name: Zero
            entities:
              A: {}
              B: {attributes: {x: string, y: string}}
            """
        try Data(model.utf8).write(to: empty.appendingPathComponent("Zero.yaml"))
        let summary = try CLIProcess.run(["model", "Zero.yaml"], in: empty.path)
        #expect(summary.status == 0, "\(summary.stderr)")
        #expect(summary.stdout.hasPrefix("model Zero (2 entities) hash "))
        #expect(summary.stdout.contains("  A — 0 attributes, 0 relationships\n"))
        #expect(summary.stdout.contains("  B — 2 attributes, 0 relationships"))
    }
}
