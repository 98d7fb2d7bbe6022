// A copy after a killed run, and a failed copy into a new store: a run left active in the target
// is undone before the copy begins (no duplicates of unkeyed objects, changed objects back as
// they were), and a copy into a store it created leaves no file behind when it fails.
import Foundation
import GraphStore
import Testing

@testable import DeepCopy
import TestSupport

@Suite struct CopyRecoveryTests {
    /// A new temporary folder.
    static func folder() throws -> String {
        let folder = try ScratchFolder.make("seedkit-copy")
        return folder
    }

    /// The files at `path` and its SQLite side files that exist.
    static func storeFiles(at path: String) -> [String] {
        ([path] + StoreFiles.sideFiles(of: path)).filter { FileManager.default.fileExists(atPath: $0) }
    }

    static func integrity(of path: String) throws -> String {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        let check = try connection.prepare("PRAGMA integrity_check")
        return try check.step() ? check.string(0) : ""
    }

    @Test func aRunLeftActiveInTheTargetIsUndoneBeforeTheCopy() throws {
        let path = try Self.folder() + "/Target.sqlite"
        let target = try PersistentStore.open(at: path, model: DeepCopierTests.model())
        let user = try ObjectContext(store: target)
        let own = try user.insert("Item")
        try own.set("sku", "Z")
        try own.set("price", 9.0)
        try user.save()
        do {
            // A copy that was killed: one batch committed inside its run, the run never finished.
            let killed = try ObjectContext(store: target)
            _ = try killed.beginRun(id: "copy-killed")
            let list = try killed.insert("List")
            try list.set("title", "Weekly")
            let item = try killed.insert("Item")
            try item.set("sku", "A")
            let mine = try #require(
                try killed.fetch(FetchRequest(entityName: "Item", predicate: .key("sku") == "Z")).first)
            try mine.set("price", 1.0)
            try killed.save()
        }
        #expect(try PersistentStore.metadata(at: path)["run.active"]?.contains("copy-killed") == true)

        let report = try DeepCopier(from: try DeepCopierTests.source(), to: target).run()
        #expect(report.warnings.contains { $0.contains("undid the unfinished run copy-killed") })
        #expect(report.entities["Item"]?.copied == 3 && report.entities["Item"]?.matched == 0)
        var expected = SetBasedCopyTests.expected
        expected.insert("Item|Z|9.0|[]|-||-", at: 4)
        #expect(try DeepCopierTests.walk(target) == expected)
        #expect(try ObjectContext(store: target).count(for: FetchRequest(entityName: "List")) == 1)
        #expect(try PersistentStore.metadata(at: path)["run.active"] == nil)
        #expect(try Self.integrity(of: path) == "ok")
    }

    @Test func aFailedCopyIntoANewStoreLeavesNoFile() throws {
        let source = try DeepCopierTests.source()
        let folder = try Self.folder()
        let path = folder + "/New.sqlite"
        var unknown = DeepCopyOptions()
        unknown.entities = ["Nope"]
        #expect(throws: DeepCopyError.self) {
            _ = try DeepCopier.copy(from: source, toNewStoreAt: path, options: unknown)
        }
        #expect(Self.storeFiles(at: path).isEmpty)
        // A failure after the store was created and batches were written: the source file is
        // emptied after the first batch of items, so the copier's next read of it fails.
        let sourcePath = folder + "/Source.sqlite"
        _ = try DeepCopier.copy(from: source, toNewStoreAt: sourcePath)
        let fileSource = try PersistentStore.open(at: sourcePath, options: Self.readOnly)
        var failing = DeepCopyOptions()
        failing.batchSize = 1
        failing.progress = { report in
            if (report.entities["Item"]?.copied ?? 0) > 0 { truncate(sourcePath, 0) }
        }
        #expect(throws: (any Error).self) {
            _ = try DeepCopier.copy(from: fileSource, toNewStoreAt: path, options: failing)
        }
        #expect(Self.storeFiles(at: path).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).allSatisfy { $0.hasPrefix("Source") })
    }

    @Test func aCopyIntoANewStoreCreatesItAndRefusesAnExistingFile() throws {
        let source = try DeepCopierTests.source()
        let path = try Self.folder() + "/New.sqlite"
        let report = try DeepCopier.copy(from: source, toNewStoreAt: path)
        #expect(report.entities["Item"]?.copied == 3)
        #expect(try DeepCopierTests.walk(PersistentStore.open(at: path)) == SetBasedCopyTests.expected)
        let error = try #require(throws: DeepCopyError.self) {
            _ = try DeepCopier.copy(from: source, toNewStoreAt: path)
        }
        #expect(error.description.contains("already exists"))
        #expect(try DeepCopierTests.walk(PersistentStore.open(at: path)) == SetBasedCopyTests.expected)
    }

    static var readOnly: StoreOptions {
        var options = StoreOptions()
        options.readOnly = true
        return options
    }
}
