// Bulk-write settings: a run of batches switches its connection to them and puts back exactly
// what it found, so the run's last transaction commits at the store's own durability.
import Foundation
import Testing

@testable import GraphStore
import TestSupport

@Suite struct BulkWriteTests {
    private func settings(_ context: ObjectContext) throws -> [Int64] {
        try context.readRows { connection in
            try ["main.synchronous", "main.cache_size", "wal_autocheckpoint"].map { pragma in
                let statement = try connection.prepare("PRAGMA \(pragma)")
                return try statement.step() ? statement.int64(0) : -1
            }
        }
    }

    @Test func bulkWritesAreUsedThenRestored() throws {
        let path = ScratchFolder.path("seedkit-bulk", suffix: ".sqlite")
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try PersistentStore.open(at: path, model: CatalogModel.build())
        let context = try ObjectContext(store: store)
        let before = try settings(context)
        let saved = try context.useBulkWrites(BulkWriteSettings(pageCacheKiB: 8192, checkpointPages: 5000))
        #expect(try settings(context) == [1, -8192, 5000])
        let unit = try context.insert("Unit")
        try unit.set("name", "kg")
        try context.save()
        try context.restore(saved)
        #expect(try settings(context) == before)
        #expect(before[0] != 1)
        let reader = try ObjectContext(store: store)
        #expect(try reader.count(for: FetchRequest(entityName: "Unit")) == 1)
    }
}
