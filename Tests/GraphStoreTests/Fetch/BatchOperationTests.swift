// Batch updates and deletes on the org chart: set-based SQL, delete rules (cascade, nullify,
// deny), row versions, and change sets merged into a live context.
import Foundation
import Testing

@testable import GraphStore

@Suite struct BatchOperationTests {
    private func rowVersion(_ context: ObjectContext, _ name: String) throws -> Int64 {
        try context.readRows { connection in
            let statement = try connection.prepare("SELECT opt FROM Person WHERE name = ?")
            statement.bind(text: name, at: 1)
            _ = try statement.step()
            return statement.int64(0)
        }
    }

    @Test func batchUpdateWritesBumpsVersionsAndMerges() throws {
        let fixture = try OrgChartFixture()
        let live = try ObjectContext(store: fixture.store)
        let dee = try #require(
            try live.fetch(FetchRequest(entityName: "Person", predicate: .key("name") == "Dee")).first)
        #expect(try dee.get("age", as: Int16.self) == 28)
        let before = try rowVersion(fixture.context, "Dee")

        let result = try fixture.context.execute(
            BatchUpdateRequest(
                entityName: "Person", predicate: try FetchPredicate(format: "manager.name == 'Cal'"),
                values: ["age": .integer(30), "salary": nil]))
        #expect(result.count == 2)
        #expect(result.changes.updated == Set(result.objectIDs))
        #expect(try rowVersion(fixture.context, "Dee") == before + 1)
        #expect(try rowVersion(fixture.context, "Ada") == before)

        #expect(try dee.get("age", as: Int16.self) == 28)  // not merged yet
        live.merge(result.changes)
        #expect(try dee.get("age", as: Int16.self) == 30)
        #expect(try dee.get("salary", as: Decimal.self) == nil)
        #expect(try fixture.names("age == 30") == ["Dee", "Éli"])
    }

    @Test func batchUpdateChecksValuesBeforeWriting() throws {
        let fixture = try OrgChartFixture()
        let cases: [[String: AttributeValue?]] = [
            ["age": .string("old")], ["name": nil], ["age": .integer(70_000)], ["nope": .integer(1)], [:],
        ]
        for values in cases {
            #expect(throws: FetchError.self, "\(values)") {
                try fixture.context.execute(BatchUpdateRequest(entityName: "Person", values: values))
            }
        }
        #expect(try fixture.names("age == 28") == ["Dee"])
    }

    @Test func batchDeleteCascadesAndMerges() throws {
        let fixture = try OrgChartFixture()
        let live = try ObjectContext(store: fixture.store)
        let borealis = try #require(
            try live.fetch(FetchRequest(entityName: "Project", predicate: .key("name") == "Borealis")).first)
        #expect(try borealis.relatedObjects("members").count == 3)
        let fay = try #require(
            try live.fetch(FetchRequest(entityName: "Person", predicate: .key("name") == "Fay")).first)

        // Zenith's people go with it (cascade): Éli, Fay, Gus, Hal; Hal leaves Borealis.
        let result = try fixture.context.execute(
            BatchDeleteRequest(entityName: "Organization", predicate: .key("name") == "Zenith"))
        #expect(result.count == 1)
        #expect(result.changes.deleted.count == 5)
        #expect(result.changes.updated.isEmpty)
        #expect(try fixture.names("TRUEPREDICATE") == ["Ada", "Bea", "Cal", "Dee"])
        let joinRows = try fixture.context.readRows { connection in
            try connection.rows(
                SQLQuery("SELECT COUNT(*) FROM Person_projects"), encoding: fixture.context.layout.values
            ) {
                $0.int(0)
            }
        }
        #expect(joinRows == [4])  // Apollo: Bea, Dee; Borealis: Cal, Dee

        live.merge(result.changes)
        #expect(throws: (any Error).self) { try live.existingObject(with: fay.objectID) }
        #expect(
            try borealis.relatedObjects("members").map { try $0.get("name", as: String.self) ?? "?" }.sorted() == [
                "Cal", "Dee",
            ])
    }

    @Test func batchDeleteNullifiesReferences() throws {
        let fixture = try OrgChartFixture()
        let live = try ObjectContext(store: fixture.store)
        let acme = try #require(
            try live.fetch(FetchRequest(entityName: "Organization", predicate: .key("name") == "Acme")).first)
        #expect(try acme.related("leader")?.get("name", as: String.self) == "Ada")
        let deeVersion = try rowVersion(fixture.context, "Dee")

        let result = try fixture.context.execute(
            BatchDeleteRequest(entityName: "Person", predicate: try FetchPredicate(format: "name IN {'Ada', 'Cal'}")))
        #expect(result.count == 2)
        // Acme's leader, Bea's and Cal's manager (Cal is deleted), Dee's and Éli's manager.
        let updatedNames = try result.changes.updated.map { id in
            try fixture.context.existingObject(with: id).get("name", as: String.self) ?? "?"
        }
        #expect(updatedNames.sorted() == ["Acme", "Bea", "Dee", "Éli"])
        #expect(try rowVersion(fixture.context, "Dee") == deeVersion + 1)
        #expect(try fixture.names("manager == nil") == ["Bea", "Dee", "Fay", "Éli"])
        #expect(try fixture.names("ANY projects.name == 'Borealis'") == ["Dee", "Hal"])

        live.merge(result.changes)
        #expect(try acme.related("leader") == nil)
    }

    @Test func denyRuleRefusesTheWholeDelete() throws {
        let model = try ModelBuilder("Deny")
            .entity("Box") { box in
                box.attribute("name", .string)
                box.toMany("items", "Item", inverse: "box", deleteRule: .deny)
            }
            .entity("Item") { item in
                item.attribute("name", .string)
                item.toOne("box", "Box", inverse: "items")
            }
            .build()
        let context = try ObjectContext(store: PersistentStore.inMemory(model: model))
        for name in ["full", "empty"] {
            let box = try context.insert("Box")
            try box.set("name", name)
            if name == "full" {
                let item = try context.insert("Item")
                try item.setRelated("box", to: box)
            }
        }
        try context.save()
        #expect(throws: FetchError.self) { try context.execute(BatchDeleteRequest(entityName: "Box")) }
        #expect(try context.count(for: FetchRequest(entityName: "Box")) == 2)
        let result = try context.execute(BatchDeleteRequest(entityName: "Box", predicate: .key("name") == "empty"))
        #expect(result.count == 1)
        #expect(try context.count(for: FetchRequest(entityName: "Box")) == 1)
    }

    @Test func cascadesFollowEveryLevel() throws {
        let model = try ModelBuilder("Library")
            .entity("Library") { library in
                library.attribute("name", .string)
                library.toMany("shelves", "Shelf", inverse: "library", deleteRule: .cascade)
            }
            .entity("Shelf") { shelf in
                shelf.attribute("label", .string)
                shelf.toOne("library", "Library", inverse: "shelves")
                shelf.toMany("books", "Book", inverse: "shelf", deleteRule: .cascade)
            }
            .entity("Book") { book in
                book.attribute("title", .string)
                book.toOne("shelf", "Shelf", inverse: "books")
                book.toMany("tags", "Tag", inverse: "books")
            }
            .entity("Tag") { tag in
                tag.attribute("name", .string)
                tag.toMany("books", "Book", inverse: "tags")
            }
            .build()
        let context = try ObjectContext(store: PersistentStore.inMemory(model: model))
        let tag = try context.insert("Tag")
        try tag.set("name", "classic")
        for name in ["North", "South"] {
            let library = try context.insert("Library")
            try library.set("name", name)
            for number in 1...2 {
                let shelf = try context.insert("Shelf")
                try shelf.set("label", "\(name)-\(number)")
                try shelf.setRelated("library", to: library)
                for copy in 1...3 {
                    let book = try context.insert("Book")
                    try book.set("title", "\(name)-\(number)-\(copy)")
                    try book.setRelated("shelf", to: shelf)
                    try book.add(tag, to: "tags")
                }
            }
        }
        try context.save()

        // North's two shelves go (first level) and their six books with them (second level).
        let result = try context.execute(BatchDeleteRequest(entityName: "Library", predicate: .key("name") == "North"))
        #expect(result.count == 1)
        #expect(result.changes.deleted.count == 1 + 2 + 6)
        #expect(try context.count(for: FetchRequest(entityName: "Shelf")) == 2)
        let titles = try context.fetch(FetchRequest(entityName: "Book")).map {
            try $0.get("title", as: String.self) ?? "?"
        }
        #expect(titles.sorted() == ["South-1-1", "South-1-2", "South-1-3", "South-2-1", "South-2-2", "South-2-3"])
        // The tag stays (nullify), linked to the six books left.
        let joinRows = try context.readRows { connection in
            try connection.rows(SQLQuery("SELECT COUNT(*) FROM Book_tags"), encoding: context.layout.values) {
                $0.int(0)
            }
        }
        #expect(joinRows == [6])
        #expect(try context.count(for: FetchRequest(entityName: "Tag")) == 1)
    }
}
