// Tests of background contexts, change propagation and concurrent saves into one store.
import Foundation
import Testing

@testable import GraphStore
import TestSupport

@Suite struct ConcurrencyTests {
    @Test func backgroundSavesMergeIntoAnotherContext() async throws {
        let store = try PersistentStore.inMemory(model: CatalogModel.build())
        let background = try BackgroundContext(store: store, name: "writer")
        let changes = store.changeSets()
        let id = try await background.perform { context in
            let unit = try context.insert("Unit")
            try unit.set("name", "kg")
            try context.save()
            return unit.objectID
        }
        var iterator = changes.makeAsyncIterator()
        let first = try #require(await iterator.next())
        #expect(first.inserted == [id])

        let reader = try ObjectContext(store: store)
        let unit = try reader.existingObject(with: id)
        #expect(try unit.get("name", as: String.self) == "kg")
        try await background.perform { context in
            try context.existingObject(with: id).set("name", "kilogram")
            try context.save()
        }
        let second = try #require(await iterator.next())
        reader.merge(second)
        #expect(try unit.get("name", as: String.self) == "kilogram")
        let blocking = background.performAndWait { context in context.registeredObjects.count }
        #expect(blocking == 1)
    }

    @Test func concurrentBackgroundContextsSaveIntoOneFileStore() async throws {
        let path = ScratchFolder.path("seedkit-concurrent", suffix: ".sqlite")
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try PersistentStore.open(at: path, model: CatalogModel.build())
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                let context = try BackgroundContext(store: store, name: "w\(writer)")
                group.addTask {
                    try await context.perform { context in
                        for batch in 0..<5 {
                            for index in 0..<50 {
                                let item = try context.insert("Item")
                                try item.set("sku", "w\(writer)-b\(batch)-\(index)")
                                try item.set("name", "n")
                            }
                            try context.save()
                            context.reset()
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let check = try ObjectContext(store: store)
        #expect(try check.count(for: FetchRequest(entityName: "Item")) == 1000)
        let integrity = try store.makeConnection().prepare("PRAGMA integrity_check")
        #expect(try integrity.step())
        #expect(integrity.string(0) == "ok")
    }
}

@Suite struct ViewContextTests {
    @MainActor @Test func backgroundSavesMergeIntoTheViewContext() async throws {
        let store = try PersistentStore.inMemory(model: CatalogModel.build())
        let container = try PersistentContainer(store: store)
        let unitID = try await container.newBackgroundContext().perform { context in
            let unit = try context.insert("Unit")
            try unit.set("name", "kg")
            try context.save()
            return unit.objectID
        }
        let shown = try container.viewContext.existingObject(with: unitID)
        #expect(try shown.get("name", as: String.self) == "kg")
        let merging = container.mergeSavesIntoViewContext()
        defer { merging.cancel() }
        try await container.newBackgroundContext().perform { context in
            try context.existingObject(with: unitID).set("name", "kilogram")
            try context.save()
        }
        for _ in 0..<200 where try shown.get("name", as: String.self) != "kilogram" {
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        #expect(try shown.get("name", as: String.self) == "kilogram")
    }
}
