// Tests of child contexts across isolation domains: a background context's child runs on a queue
// of its own and waits on its parent's; nested background children; a child entered from inside
// its parent's work; and the tutorial case on the main actor — edit in a child of the view
// context, then cancel or save.
import Foundation
import Testing

@testable import GraphStore

@Suite struct BackgroundChildContextTests {
    @Test func aBackgroundChildSavesIntoItsParentAndTakesThePermanentIDs() async throws {
        let stock = try CatalogStock()
        let (applesID, gramsID) = (try stock.id("A-1"), try stock.id("g"))
        let parent = try BackgroundContext(store: stock.store, name: "parent")
        let child = try parent.newChildContext(name: "child")
        let figsID = try await child.perform { context in
            try context.existingObject(with: applesID).set("price", 1.75)
            let figs = try CatalogModel.insertItem(into: context, sku: "F-6", name: "Figs", price: 6)
            try figs.setRelated("unit", to: context.existingObject(with: gramsID))
            try context.save()
            return figs.objectID
        }
        #expect(figsID.isTemporary)
        #expect(try stock.storedItems() == CatalogStock.originalItems)

        let inParent = try await parent.perform { context in
            let line = try CatalogStock.line(of: context.existingObject(with: figsID))
            try context.save()
            return line
        }
        #expect(inParent == "F-6 Figs 6.0 g")
        #expect(try stock.storedItems() == ["A-1 Apples 1.75 kg", "B-2 Bananas 2.0 kg", "F-6 Figs 6.0 g"])

        // The next time the child runs, its object carries the permanent ID.
        let inChild = try await child.perform { context in
            try context.registeredObjects.first {
                try $0.entity.name == "Item" && $0.get("sku", as: String.self) == "F-6"
            }?.objectID
        }
        let permanent = try #require(inChild)
        #expect(!permanent.isTemporary)
        #expect(try stock.stored { try $0.existingObject(with: permanent).get("sku", as: String.self) } == "F-6")
    }

    @Test func nestedBackgroundChildrenSaveUpToTheStore() async throws {
        let stock = try CatalogStock()
        let bananasID = try stock.id("B-2")
        let parent = try BackgroundContext(store: stock.store)
        let child = try parent.newChildContext()
        let grandchild = try child.newChildContext()
        try await grandchild.perform { context in
            try context.existingObject(with: bananasID).set("name", "Plantains")
            try context.save()
        }
        let pending = await (child.perform { $0.hasChanges }, parent.perform { $0.hasChanges })
        #expect(pending == (true, false))
        _ = try await child.perform { try $0.save() }
        #expect(try stock.storedItems() == CatalogStock.originalItems)
        _ = try await parent.perform { try $0.save() }
        #expect(try stock.storedItems() == ["A-1 Apples 1.0 kg", "B-2 Plantains 2.0 kg"])
    }

    @Test func aChildEnteredFromInsideItsParentsWorkReachesTheParent() async throws {
        let stock = try CatalogStock()
        let parent = try BackgroundContext(store: stock.store)
        let child = try parent.newChildContext()
        // The parent's queue is held (here and further up the stack) while the child needs it.
        let blocking = try parent.performAndWait { context in
            _ = try CatalogModel.insertItem(into: context, sku: "H-8", name: "Hazelnuts", price: 8)
            return try child.performAndWait { try $0.count(for: FetchRequest(entityName: "Item")) }
        }
        #expect(blocking == 3)
        let async = try await parent.perform { _ in
            try child.performAndWait { context in
                try context.fetch(FetchRequest(entityName: "Item", predicate: .key("sku") == "H-8")).count
            }
        }
        #expect(async == 1)
    }

    @Test func childrenWorkingWhileTheirParentSaves() async throws {
        let stock = try CatalogStock()
        let parent = try BackgroundContext(store: stock.store)
        let children = try (0..<3).map { try parent.newChildContext(name: "child\($0)") }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (number, child) in children.enumerated() {
                group.addTask {
                    for round in 0..<10 {
                        try await child.perform { context in
                            _ = try CatalogModel.insertItem(
                                into: context, sku: "c\(number)-\(round)", name: "n", price: 1)
                            #expect(try context.count(for: FetchRequest(entityName: "Item")) >= 3 + round)
                            try context.save()
                        }
                    }
                }
            }
            group.addTask {
                for _ in 0..<10 { _ = try await parent.perform { try $0.save() } }
            }
            try await group.waitForAll()
        }
        _ = try await parent.perform { try $0.save() }
        #expect(try stock.stored { try $0.count(for: FetchRequest(entityName: "Item")) } == 32)
        for child in children {
            let temporary = await child.perform { context in
                context.registeredObjects.filter(\.objectID.isTemporary).count
            }
            #expect(temporary == 0)
        }
    }
}

@Suite struct ViewContextChildTests {
    @MainActor @Test func editInAChildOfTheViewContextThenCancelOrSave() throws {
        let stock = try CatalogStock()
        let container = try PersistentContainer(store: stock.store)
        let applesID = try stock.id("A-1")
        let shown = try container.viewContext.existingObject(with: applesID)

        // Cancel: the editor is dropped with its change.
        do {
            let editor = try container.viewContext.newChildContext(name: "editor")
            try editor.existingObject(with: applesID).set("name", "Renamed")
        }
        #expect(try shown.get("name", as: String.self) == "Apples")
        #expect(!container.viewContext.hasChanges)

        // Save: the editor's save shows in the view context at once; the view context's save stores it.
        let editor = try container.viewContext.newChildContext(name: "editor")
        let edited = try editor.existingObject(with: applesID)
        try edited.set("name", "Golden apples")
        try editor.save()
        #expect(try shown.get("name", as: String.self) == "Golden apples")
        #expect(try stock.storedItems() == CatalogStock.originalItems)
        try container.viewContext.save()
        #expect(try stock.storedItems() == ["A-1 Golden apples 1.0 kg", "B-2 Bananas 2.0 kg"])
    }
}
