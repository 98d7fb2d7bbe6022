// Cancelling a copy between batches: after batches have committed, the copy stops, undoes its
// run and throws CancellationError. A store the copy created is gone with its side files; a store
// that existed holds exactly what it held before (StoreDiff against a copy taken before the
// copy), has no active run, and no side files once the copy's connections are closed. Both ways
// a task's cancellation reaches a copy are covered: the task calling `run()` itself, and the
// task awaiting the thread the copy runs on (BlockingWork).
import Foundation
import GraphStore
import Synchronization
import Testing
import TestSupport

@testable import DeepCopy

@Suite struct CopyCancellationTests {
    /// A source with more items than fit one batch, in a file (read-only).
    static func fileSource(in folder: String) throws -> PersistentStore {
        let path = folder + "/Source.sqlite"
        _ = try DeepCopier.copy(from: try DeepCopierTests.source(), toNewStoreAt: path)
        return try PersistentStore.open(at: path, options: CopyRecoveryTests.readOnly)
    }

    @Test func aCancelledCopyIntoANewStoreLeavesNoFile() async throws {
        let folder = try CopyRecoveryTests.folder()
        let source = try Self.fileSource(in: folder)
        let path = folder + "/New.sqlite"
        let committed = Mutex(0)
        var options = DeepCopyOptions()
        options.batchSize = 1
        options.progress = { report in
            // Runs after each committed batch, on the copy's task: the first one cancels it.
            committed.withLock { $0 += 1 }
            if (report.entities["Item"]?.copied ?? 0) > 0 { withUnsafeCurrentTask { $0?.cancel() } }
        }
        let copy = Task { [options] in try DeepCopier.copy(from: source, toNewStoreAt: path, options: options) }
        let result = await copy.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(committed.withLock { $0 } == 1)  // the first batch of items was committed, then undone
        #expect(CopyRecoveryTests.storeFiles(at: path).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).allSatisfy { $0.hasPrefix("Source") })
    }

    @Test func aCancelledMergeLeavesTheStoreAsItWas() async throws {
        let folder = try CopyRecoveryTests.folder()
        let source = try Self.fileSource(in: folder)
        let path = folder + "/Target.sqlite"
        try Self.makeTarget(at: path)
        let before = folder + "/Before.sqlite"
        _ = try DeepCopier.copy(from: try PersistentStore.open(at: path), toNewStoreAt: before)

        let (batches, continuation) = AsyncStream.makeStream(of: Int.self)
        var options = DeepCopyOptions()
        options.batchSize = 1
        options.onConflict = .update
        options.progress = { report in
            // After the first committed batch of items, wait (on the copy's thread) until the
            // awaiting task is cancelled, so the copy certainly stops half-way.
            guard let copied = report.entities["Item"]?.copied, copied > 0 else { return }
            continuation.yield(copied)
            BlockingWork.waitForCancellation(atMost: 30)
        }
        let copy = Task { [options] in
            try await BlockingWork.run(name: "seedkit.copy-test") { _ in
                try DeepCopier(from: source, to: try PersistentStore.open(at: path), options: options).run()
            }
        }
        for await _ in batches { break }
        copy.cancel()
        let result = await copy.result
        continuation.finish()
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(CopyRecoveryTests.storeFiles(at: path) == [path])  // every connection of the copy is closed

        let target = try PersistentStore.open(at: path)
        let snapshot = try PersistentStore.open(at: before)
        #expect(try StoreDiff(snapshot, target).differences() == [])
        #expect(try target.metadata()["run.active"] == nil)
        #expect(try CopyRecoveryTests.integrity(of: path) == "ok")
        // And the same copy, not cancelled, does change it: the comparison above can fail.
        var plain = options
        plain.progress = nil
        _ = try DeepCopier(from: source, to: target, options: plain).run()
        #expect(try !StoreDiff(snapshot, target).differences().isEmpty)
    }

    /// A store holding part of the source's objects, one of them changed, and one of its own.
    static func makeTarget(at path: String) throws {
        var options = DeepCopyOptions()
        options.predicates = ["Item": .key("sku") == "A"]
        _ = try DeepCopier.copy(from: try DeepCopierTests.source(), toNewStoreAt: path, options: options)
        let context = try ObjectContext(store: try PersistentStore.open(at: path))
        let item = try #require(try context.fetch(FetchRequest(entityName: "Item")).first)
        try item.set("price", 99.0)
        let own = try context.insert("Item")
        try own.set("sku", "Z")
        try context.save()
    }
}
