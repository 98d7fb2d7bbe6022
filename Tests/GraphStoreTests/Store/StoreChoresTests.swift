// The store-level chores every job shares: IN (…) lookups of keys in fixed-size chunks (single
// and composite keys, a short last chunk, one prepared statement), removing a store with its
// side files, and running blocking work on a thread of its own that delivers its result and
// sees the awaiting task's cancellation (and only that task's).
import Foundation
import Synchronization
import Testing

@testable import GraphStore
import TestSupport

@Suite struct StoreChoresTests {
    @Test func keyChunksLookUpEveryKeyWithOneStatement() throws {
        let connection = try SQLiteConnection.inMemory(name: uniqueMemoryName())
        try connection.execute("CREATE TABLE t(a INTEGER, b TEXT, PRIMARY KEY (a, b))")
        for a in 1...10 { try connection.execute("INSERT INTO t VALUES (\(a), 'x\(a)'), (\(a), 'y\(a)')") }

        let single = KeyChunks(size: 4)
        #expect(single.list == "(?, ?, ?, ?)")
        #expect(single.split([Int64](1...10)).map(Array.init) == [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10]])
        let statement = try connection.prepare("SELECT a, b FROM t WHERE a IN \(single.list) ORDER BY a, b")
        var found: [String] = []
        for chunk in single.split([Int64]([2, 3, 5, 7, 11, 13])) {
            try single.query(statement, with: chunk, bind: { $0.bind($1, at: $2) }) { row in
                found.append("\(row.int64(0))\(row.string(1))")
            }
        }
        // The short last chunk (11, 13) repeats 13 and finds nothing; every row is read once.
        #expect(found == ["2x2", "2y2", "3x3", "3y3", "5x5", "5y5", "7x7", "7y7"])

        let pairs = KeyChunks(size: 3, width: 2)
        #expect(pairs.list == "(VALUES (?, ?), (?, ?), (?, ?))")
        #expect(KeyChunks.target(["a", "b"]) == "(a, b)" && KeyChunks.target(["a"]) == "a")
        let composite = try connection.prepare(
            "SELECT a FROM t WHERE \(KeyChunks.target(["a", "b"])) IN \(pairs.list) ORDER BY a")
        var matched: [Int64] = []
        let keys: [(Int64, String)] = [(1, "x1"), (2, "nope"), (4, "y4"), (9, "y9")]
        for chunk in pairs.split(keys) {
            try pairs.query(
                composite, with: chunk,
                bind: { statement, key, first in
                    statement.bind(key.0, at: first)
                    statement.bind(text: key.1, at: first + 1)
                }
            ) { matched.append($0.int64(0)) }
        }
        #expect(matched == [1, 4, 9])
        try pairs.query(composite, with: [(Int64, String)](), bind: { _, _, _ in }) { _ in
            Issue.record("no keys, no rows")
        }
    }

    @Test func storeFilesGoTogether() throws {
        let folder = URL(fileURLWithPath: try ScratchFolder.make("seedkit-files"))
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("A.sqlite").path
        let other = folder.appendingPathComponent("A.sqlite.other").path
        func touch(_ paths: [String]) {
            for path in paths { #expect(FileManager.default.createFile(atPath: path, contents: Data())) }
        }
        func present() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() }

        touch([store, other] + StoreFiles.sideFiles(of: store))
        try StoreFiles.removeSideFiles(of: store)
        #expect(try present() == ["A.sqlite", "A.sqlite.other"])
        touch(StoreFiles.sideFiles(of: store).dropLast())
        try StoreFiles.remove(store)
        #expect(try present() == ["A.sqlite.other"])
        try StoreFiles.remove(store)  // nothing left to remove: fine
        let directory = folder.appendingPathComponent("B.sqlite").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let error = #expect(throws: StoreError.self) { try StoreFiles.remove(directory) }
        #expect(error?.path == directory && error?.description.contains("cannot remove") == true)
    }

    @Test func blockingWorkReturnsOrThrowsWhatItsBodyDoes() async throws {
        #expect(try await BlockingWork.run(name: "seedkit.test") { _ in (1...100).reduce(0, +) } == 5050)
        await #expect(throws: StoreError.self) {
            try await BlockingWork.run(name: "seedkit.test") { _ in throw StoreError(.readOnly, path: "x") }
        }
        #expect(!BlockingWork.isCancelled)
    }

    @Test func cancellingTheAwaitingTaskReachesTheThread() async throws {
        let started = Mutex(false)
        let work = Task {
            try await BlockingWork.run(name: "seedkit.test") { flag in
                started.withLock { $0 = true }
                BlockingWork.waitForCancellation(atMost: 30)
                #expect(flag.isCancelled)
                try BlockingWork.checkCancellation()
                return "finished"
            }
        }
        while !started.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(1)) }
        work.cancel()
        await #expect(throws: CancellationError.self) { try await work.value }
        // Another thread's flag is not this thread's.
        #expect(try await BlockingWork.run(name: "seedkit.test") { _ in BlockingWork.isCancelled } == false)
    }
}
