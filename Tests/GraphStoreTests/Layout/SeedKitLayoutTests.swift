// SeedKit's own layout as the layout contract states it (docs/StoreFormat.md): entity numbers,
// tables shared by sub-entities, columns, how each kind of relationship is kept, join tables
// with their position columns, a table's data columns, the row statements, the exact schema a
// new store gets (tables and indexes, partial unique indexes for sub-entities), keys and
// metadata through the contract, and a file no known layout recognises.
import Foundation
import Testing

@testable import GraphStore

@Suite struct SeedKitLayoutTests {
    /// Shelf ⟶ ordered works ⟷ Work.shelf; Work (abstract) with sub-entities Book (unique isbn,
    /// decimal price) and Pamphlet; Tag.works ⟷ Work.tags, both ordered; Work.related without inverse.
    static func library() throws -> ObjectModel {
        try ModelBuilder("Library")
            .entity("Shelf") { shelf in
                shelf.attribute("name", .string, optional: false)
                shelf.toMany("works", "Work", inverse: "shelf", ordered: true)
                shelf.unique("name")
            }
            .entity("Work", abstract: true) { work in
                work.attribute("title", .string)
                work.toOne("shelf", "Shelf", inverse: "works")
                work.toMany("tags", "Tag", inverse: "works", ordered: true)
                work.toMany("related", "Work")
            }
            .entity("Book", parent: "Work") { book in
                book.attribute("isbn", .string)
                book.attribute("price", .decimal)
                book.unique("isbn")
            }
            .entity("Pamphlet", parent: "Work") { $0.attribute("pages", .integer16) }
            .entity("Tag") { tag in
                tag.attribute("name", .string)
                tag.toMany("works", "Work", inverse: "tags", ordered: true)
            }
            .build()
    }

    static func layout(_ model: ObjectModel) -> StoreLayout {
        StoreLayout(model: model, rules: SeedKitLayout())
    }

    @Test func entityNumbersTablesAndKinds() throws {
        let model = try Self.library()
        let layout = Self.layout(model)
        let names = ["Book", "Pamphlet", "Shelf", "Tag", "Work"]
        #expect(model.entities.map(\.name) == names)
        #expect(model.entities.map(layout.number(of:)) == [1, 2, 3, 4, 5])
        #expect(try [1, 2, 3, 4, 5].map { try #require(layout.entity(number: $0)).name } == names)
        #expect(layout.entity(number: 0) == nil && layout.entity(number: 6) == nil && layout.entity(number: -1) == nil)
        let work = try #require(model.entity(named: "Work"))
        let book = try #require(model.entity(named: "Book"))
        #expect(layout.table(of: book) == "Work" && layout.table(of: work) == "Work")
        #expect(layout.kindNumbers(of: work) == [1, 2, 5] && layout.kindList(of: work) == "1, 2, 5")
        #expect(layout.kindNumbers(of: book) == [1])
        #expect(layout.roots.map(\.name) == ["Shelf", "Tag", "Work"])
        #expect(try layout.column(of: #require(book.attribute(named: "isbn"))) == "isbn")
        #expect(layout.column(ofProperty: "shelf", in: book) == "shelf")
        #expect(layout.column(ofProperty: "tags", in: book) == nil)
        #expect((layout.keyColumn, layout.entityColumn, layout.versionColumn) == ("pk", "ent", "opt"))
    }

    @Test func relationshipStorage() throws {
        let catalog = Self.layout(try CatalogModel.build())
        func storage(_ entity: String, _ name: String) throws -> RelationshipStorage {
            catalog.storage(of: try #require(catalog.model.entity(named: entity)?.relationship(named: name)))
        }
        #expect(try storage("Item", "unit") == .foreignKey(column: "unit"))
        #expect(try storage("Unit", "items") == .inverseForeignKey(column: "unit", orderColumn: nil))
        #expect(
            try storage("Item", "tags")
                == .joinTable(table: "Item_tags", sourceColumn: "src", destinationColumn: "dst", orderColumn: nil))
        #expect(
            try storage("Tag", "items")
                == .joinTable(table: "Item_tags", sourceColumn: "dst", destinationColumn: "src", orderColumn: nil))
        #expect(
            try storage("ShoppingList", "items")
                == .joinTable(
                    table: "ShoppingList_items", sourceColumn: "src", destinationColumn: "dst", orderColumn: "position")
        )
        let library = Self.layout(try Self.library())
        let shelfWorks = try #require(library.model.entity(named: "Shelf")?.relationship(named: "works"))
        #expect(library.storage(of: shelfWorks) == .inverseForeignKey(column: "shelf", orderColumn: "shelf_position"))
        // Inherited relationships are kept as their declaring entity keeps them.
        let bookTags = try #require(library.model.entity(named: "Book")?.relationship(named: "tags"))
        #expect(
            library.storage(of: bookTags)
                == .joinTable(
                    table: "Tag_works", sourceColumn: "dst", destinationColumn: "src", orderColumn: "inverse_position"))
        #expect(library.storage(of: bookTags).shape == .joinTable(ordered: true))
        #expect(library.companionColumn(of: bookTags) == nil)
        #expect(
            library.joinTables == [
                JoinTableLayout(
                    name: "Tag_works", firstColumn: "src", secondColumn: "dst", firstRootIndex: 3, secondRootIndex: 4,
                    orders: [
                        .init(column: "inverse_position", ownerColumn: "dst"),
                        .init(column: "position", ownerColumn: "src"),
                    ]),
                JoinTableLayout(
                    name: "Work_related", firstColumn: "src", secondColumn: "dst", firstRootIndex: 4,
                    secondRootIndex: 4, orders: []),
            ])
    }

    @Test func dataColumnsAndRowStatements() throws {
        let layout = Self.layout(try Self.library())
        let work = try #require(layout.model.entity(named: "Work"))
        let columns = layout.dataColumns(ofRoot: work)
        #expect(columns.map(\.name) == ["isbn", "pages", "price", "shelf", "shelf_position", "title"])
        #expect(
            columns.map(\.content) == [
                .attribute(.string), .attribute(.integer16), .attribute(.decimal), .reference, .position,
                .attribute(.string),
            ])
        let book = layout.rows(of: try #require(layout.model.entity(named: "Book")))
        #expect(
            book.insertSQL
                == #"INSERT INTO "Work"(pk, ent, opt, "title", "isbn", "price", "shelf") VALUES (?, ?, ?, ?, ?, ?, ?)"#)
        #expect(
            book.updateSQL
                == #"UPDATE "Work" SET opt = ?, "title" = ?, "isbn" = ?, "price" = ?, "shelf" = ? WHERE pk = ?"#)
        #expect(book.selectSQL == #"SELECT opt, "title", "isbn", "price", "shelf" FROM "Work" WHERE pk = ?"#)
        #expect(book.deleteSQL == #"DELETE FROM "Work" WHERE pk = ?"#)
        #expect(book.writtenColumnCount == 4 && book.destinationEntityColumns(alias: "t0").isEmpty)
        // A to-one to an entity with sub-entities reads its destination's entity number with the key.
        let favorites = StoreLayout(
            model: try ModelBuilder("F")
                .entity("Fan") { $0.toOne("favorite", "Work") }
                .entity("Work") { $0.attribute("title", .string) }
                .entity("Song", parent: "Work") { $0.attribute("length", .double) }
                .build(), rules: SeedKitLayout())
        let fan = favorites.rows(of: try #require(favorites.model.entity(named: "Fan")))
        #expect(fan.destinationEntityColumns(alias: "t0") == [#"(SELECT ent FROM "Work" WHERE pk = t0."favorite")"#])
        #expect(
            fan.selectSQL
                == #"SELECT opt, "favorite", (SELECT ent FROM "Work" WHERE pk = "favorite") FROM "Fan" WHERE pk = ?"#)
    }

    @Test func aNewStoreHasExactlyTheLayoutsSchema() throws {
        let store = try PersistentStore.inMemory(model: try Self.library())
        let connection = try store.makeConnection()
        let rows = try connection.prepare("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid")
        var schema: [String] = []
        while try rows.step() { schema.append(rows.string(0)) }
        #expect(
            schema == [
                "CREATE TABLE seedkit_metadata(key TEXT PRIMARY KEY NOT NULL, value)",
                "CREATE TABLE seedkit_entity(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, parent INTEGER)",
                #"CREATE TABLE "Shelf"(pk INTEGER PRIMARY KEY, ent INTEGER NOT NULL, opt INTEGER NOT NULL, "name" TEXT)"#,
                #"CREATE TABLE "Tag"(pk INTEGER PRIMARY KEY, ent INTEGER NOT NULL, opt INTEGER NOT NULL, "name" TEXT)"#,
                #"CREATE TABLE "Work"(pk INTEGER PRIMARY KEY, ent INTEGER NOT NULL, opt INTEGER NOT NULL, "isbn" TEXT, "pages" INTEGER, "price" TEXT, "shelf" INTEGER, "shelf_position" INTEGER, "title" TEXT)"#,
                #"CREATE TABLE "Tag_works"(src INTEGER NOT NULL, dst INTEGER NOT NULL, inverse_position INTEGER, position INTEGER, PRIMARY KEY(src, dst)) WITHOUT ROWID"#,
                #"CREATE TABLE "Work_related"(src INTEGER NOT NULL, dst INTEGER NOT NULL, PRIMARY KEY(src, dst)) WITHOUT ROWID"#,
                #"CREATE UNIQUE INDEX "uq_Book_isbn" ON "Work"("isbn") WHERE ent IN (1)"#,
                #"CREATE INDEX "idx_Work_shelf" ON "Work"("shelf", "shelf_position")"#,
                #"CREATE UNIQUE INDEX "uq_Shelf_name" ON "Shelf"("name")"#,
                #"CREATE INDEX "idx_Work_ent" ON "Work"(ent)"#,
                #"CREATE INDEX "idx_Tag_works_dst" ON "Tag_works"(dst, src)"#,
                #"CREATE INDEX "idx_Work_related_dst" ON "Work_related"(dst, src)"#,
            ])
        let entities = try connection.prepare("SELECT id, name, coalesce(parent, 0) FROM seedkit_entity ORDER BY id")
        var rowsOfEntities: [String] = []
        while try entities.step() {
            rowsOfEntities.append("\(entities.int64(0)) \(entities.string(1)) \(entities.int64(2))")
        }
        #expect(rowsOfEntities == ["1 Book 5", "2 Pamphlet 5", "3 Shelf 0", "4 Tag 0", "5 Work 0"])
    }

    @Test func keysAndMetadataGoThroughTheLayout() throws {
        let store = try PersistentStore.inMemory(model: try CatalogModel.build())
        let context = try ObjectContext(store: store)
        let layout = store.layout
        let item = try #require(store.model.entity(named: "Item"))
        #expect(try context.readRows { try layout.highestKey(ofRoot: item, on: $0) } == 0)
        for sku in ["A", "B", "C"] { _ = try CatalogModel.insertItem(into: context, sku: sku, name: sku, price: 1) }
        try context.save()
        #expect(try context.readRows { try layout.highestKey(ofRoot: item, on: $0) } == 3)
        let tag = try #require(store.model.entity(named: "Tag"))
        #expect(try context.readRows { try layout.highestKey(ofRoot: tag, on: $0) } == 0)
        try store.setMetadata(["seed.version": "7"])
        let stored = try context.readRows { try layout.readMetadata(on: $0, path: "memory") }
        #expect(stored["seed.version"] == "7")
        #expect(try store.metadata().modelHash == store.model.versionHash)
        #expect(layout.reservedName("doomed") == "seedkit_doomed" && layout.journalTable == "seedkit_undo")
    }

    @Test func aFileNoLayoutRecognisesIsNotAStore() throws {
        let path = TemporaryDatabasePath()
        defer { path.remove() }
        let connection = try SQLiteConnection(path: path.path, mode: .readWriteCreate)
        try connection.execute("CREATE TABLE other(x)")
        #expect(try StoreLayout.rules(of: connection) == nil)
        connection.close()
        let opening = #expect(throws: StoreError.self) { _ = try PersistentStore.open(at: path.path) }
        #expect(opening?.kind == .notAStore)
        let reading = #expect(throws: StoreError.self) { _ = try PersistentStore.metadata(at: path.path) }
        #expect(reading?.kind == .notAStore)
    }
}
