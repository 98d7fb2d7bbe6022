// The commands that read stores — `inspect`, `export`, `diff`, `copy --from`, `model STORE` — on
// stores from elsewhere (docs/Security.md): a crafted or damaged store is refused with one
// `seedkit:` line and exit 1, and nothing is created; and reading a store, crafted or not, changes
// no byte of it, of its -wal, nor the folder's listing.
import Foundation
import GraphStore
import Testing

@Suite struct UntrustedStoreCommandTests {
    /// A sample folder with the catalog built as `Good.sqlite` (one file, journal mode DELETE).
    private static func folderWithABuiltStore() throws -> String {
        let folder = try ExitCodeTests.sampleFolder()
        let built = try CLIProcess.run(["build", "catalog-csv.yaml", "-o", "Good.sqlite", "--quiet"], in: folder)
        #expect(built.status == 0, "\(built.stderr)")
        return folder
    }

    /// Every file of `folder` (not below it) with its bytes; a -shm by name only (SQLite's index
    /// of a -wal, which readers may update).
    private static func snapshot(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isFolder),
                !isFolder.boolValue
            else { continue }
            files[name] =
                name.hasSuffix("-shm") ? Data() : try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
        }
        return files
    }

    /// The read-only commands on `store` (in `folder`); a copy goes to a new store in `elsewhere`.
    private static func readingCommands(_ store: String, elsewhere: String) -> [[String]] {
        [
            ["inspect", store], ["inspect", store, "--json", "--verify"],
            ["export", store, "--entity", "Item", "--format", "ndjson"], ["diff", store, "Good.sqlite"],
            ["diff", store, store, "--verify"],
            ["copy", "--from", store, "--to", elsewhere + "/Copy-\(UUID().uuidString).sqlite", "--quiet"],
            ["model", store, "--json"],
        ]
    }

    /// Overwrites bytes of the file at `path` from `offset` on.
    private static func patch(_ path: String, at offset: Int, with bytes: [UInt8]) throws {
        guard let file = FileHandle(forWritingAtPath: path) else { throw CocoaError(.fileNoSuchFile) }
        defer { try? file.close() }
        try file.seek(toOffset: UInt64(offset))
        try file.write(contentsOf: Data(bytes))
    }

    /// Runs `sql` on the store at `path` (a plain read-write connection).
    private static func run(_ sql: String, on path: String) throws {
        let connection = try SQLiteConnection(path: path, mode: .readWrite)
        defer { connection.close() }
        try connection.execute(sql)
    }

    @Test func readingChangesNoStoreWhateverItsJournal() throws {
        let folder = try Self.folderWithABuiltStore()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let elsewhere = folder + "/copies"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        // A store left in WAL mode by an import (no side files once it is closed).
        let imported = try CLIProcess.run(
            ["import", "catalog-csv.yaml", "--store", "Imported.sqlite", "--quiet"], in: folder)
        #expect(imported.status == 0, "\(imported.stderr)")
        // A store in use: an app holds it open with a transaction in its -wal.
        try FileManager.default.copyItem(atPath: folder + "/Imported.sqlite", toPath: folder + "/InUse.sqlite")
        let app = try SQLiteConnection(path: folder + "/InUse.sqlite", mode: .readWrite)
        defer { app.close() }
        try app.execute("PRAGMA wal_autocheckpoint = 0; UPDATE \"Item\" SET name = 'Changed' WHERE sku = 'A-001'")
        #expect(FileManager.default.fileExists(atPath: folder + "/InUse.sqlite-wal"))

        for store in ["Good.sqlite", "Imported.sqlite", "InUse.sqlite"] {
            let before = try Self.snapshot(folder)
            for arguments in Self.readingCommands(store, elsewhere: elsewhere) {
                let result = try CLIProcess.run(arguments, in: folder)
                #expect(result.status == 0 || arguments[0] == "diff", "\(arguments): \(result.stderr)")
                #expect(try Self.snapshot(folder) == before, "\(arguments) changed the folder")
            }
        }
        let inUse = try CLIProcess.run(["export", "InUse.sqlite", "--entity", "Item", "--format", "csv"], in: folder)
        #expect(inUse.stdout.contains("Changed"), "the store's -wal is read")
    }

    /// The stores crafted from `Good.sqlite` in `folder`, with the reason each is refused for.
    private static func craft(in folder: String) throws -> [(name: String, refusal: String)] {
        let good = folder + "/Good.sqlite"
        func copy(_ name: String) throws -> String {
            try FileManager.default.copyItem(atPath: good, toPath: folder + "/" + name)
            return folder + "/" + name
        }
        try run("CREATE VIEW cheap AS SELECT seedkit_fold(name, 1) FROM \"Item\"", on: try copy("View.sqlite"))
        try run(
            "CREATE TRIGGER audit AFTER INSERT ON \"Item\" BEGIN SELECT seedkit_matches(NEW.name, '(a+)+$', 0); END",
            on: try copy("Trigger.sqlite"))
        try run("CREATE TABLE checked(x CHECK (length(printf('%.*c', 1e9, x)) > 0))", on: try copy("Check.sqlite"))
        let truncated = try copy("Truncated.sqlite")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: truncated)[.size] as? Int)
        try FileHandle(forWritingTo: URL(fileURLWithPath: truncated)).truncate(atOffset: UInt64(size / 3))
        let corrupt = try copy("Corrupt.sqlite")
        try patch(corrupt, at: 4096 * 2, with: [UInt8](repeating: 0xA5, count: 4096 * 3))
        // Every page after the store's schema and metadata (its first four) scrambled: the tables'
        // pages, met by every command that reads objects.
        let scrambled = try copy("Scrambled.sqlite")
        let pages = try #require(try FileManager.default.attributesOfItem(atPath: scrambled)[.size] as? Int) / 4096
        try patch(scrambled, at: 4096 * 4, with: (0..<(pages - 4) * 4096).map { UInt8(truncatingIfNeeded: $0 &* 37) })
        try patch(try copy("Header.sqlite"), at: 16, with: [0x00, 0x03])
        #expect(FileManager.default.createFile(atPath: folder + "/Text.sqlite", contents: Data("id,name\n1,x\n".utf8)))
        // A -wal of another store (built from other sources: another store UUID) beside a copy:
        // an app's log, copied while the app holds it.
        let built = try CLIProcess.run(["build", "catalog-json.yaml", "-o", "Other.sqlite", "--quiet"], in: folder)
        #expect(built.status == 0, "\(built.stderr)")
        let other = folder + "/Other.sqlite"
        let writer = try SQLiteConnection(path: other, mode: .readWrite)
        _ = try writer.setJournalMode(.wal)
        try writer.execute("PRAGMA wal_autocheckpoint = 0; INSERT INTO seedkit_metadata VALUES ('note', 'x')")
        try FileManager.default.copyItem(atPath: other + "-wal", toPath: try copy("ForeignLog.sqlite") + "-wal")
        writer.close()
        return [
            ("View.sqlite", "the store's schema holds what SeedKit does not run: view \"cheap\""),
            (
                "Trigger.sqlite",
                "the store's schema holds what SeedKit does not run: table \"Item\": its triggers, CHECK constraints or indexes cannot be compiled (unsafe use of seedkit_matches())"
            ),
            (
                "Check.sqlite",
                "the store's schema holds what SeedKit does not run: table \"checked\" CHECK (length(printf('%.*c', 1e9, x)) > 0)"
            ),
            ("Truncated.sqlite", "the store file is damaged: database disk image is malformed"),
            ("Corrupt.sqlite", "the store file is damaged: "),
            ("Scrambled.sqlite", "the store file is damaged: "),
            ("Header.sqlite", "the store file is damaged: impossible header: file is not a database"),
            ("Text.sqlite", "not a SeedKit store"),
            ("ForeignLog.sqlite", "the store file is damaged: the -wal beside it is not its own (it turns store "),
        ]
    }

    @Test func aCraftedOrDamagedStoreIsRefusedWithOneLineAndExit1() throws {
        let folder = try Self.folderWithABuiltStore()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let elsewhere = folder + "/copies"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        for (store, refusal) in try Self.craft(in: folder) {
            let before = try Self.snapshot(folder)
            for arguments in Self.readingCommands(store, elsewhere: elsewhere) + [["diff", "Good.sqlite", store]] {
                // A corrupted page is met where it is read (`model` reads none of the tables);
                // --verify (quick_check) meets it on open: Corrupt.sqlite's pages are read by no
                // command, Scrambled.sqlite's by all but `model`.
                if ["Corrupt.sqlite", "Scrambled.sqlite"].contains(store) && arguments[0] == "model" { continue }
                let verified = store == "Corrupt.sqlite" && !arguments.contains("--verify")
                let command = verified ? arguments + ["--verify"] : arguments
                let result = try CLIProcess.run(command, in: folder)
                #expect(result.status == 1, "\(command): \(result.stdout)")
                #expect(result.stderr.hasPrefix("seedkit: \(store): \(refusal)"), "\(command): \(result.stderr)")
                #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(command): \(result.stderr)")
                #expect(
                    !result.stdout.contains("{") || arguments[0] == "copy",
                    "\(command) printed a report: \(result.stdout)")
            }
            // Nothing was copied, and nothing of the folder (the crafted store included) changed
            // but the -shm SQLite needs beside a -wal.
            #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty, "\(store)")
            var after = try Self.snapshot(folder)
            if before[store + "-shm"] == nil { after[store + "-shm"] = nil }
            #expect(after == before, "\(store)")
        }
    }
}
