// Migrating a Core Data–layout store (docs/Migration.md, "Core Data stores"): the result is laid
// out as Core Data lays out the new version — its entity version hashes in `Z_METADATA`, its entity
// numbers and `Z_MAX` in `Z_PRIMARYKEY`, its join tables and columns named after the new numbers,
// companion entity columns renumbered — so that Core Data opens it at the new version without a
// migration of its own. No store made by Apple's Core Data is in the repository, so the oracle is
// a Core Data–layout store of the new version filled directly with the same objects: the migrated
// file must hold the same tables, indexes and rows (all but the metadata row), and the same
// object graph. Also: CoreDataPlus's chain with its mapping model and policy gives the same
// objects in Core Data's layout as in SeedKit's; refusals (a store at no version, the data-loss
// gate, a version Core Data's layout cannot be predicted for) leave the store's bytes as they were.
import Foundation
import GraphStore
import ModelFiles
import PropertyLists
import Testing

@testable import StoreMigration

@Suite struct CoreDataStoreMigrationTests {
    typealias Support = MigrationTestSupport

    /// Version 1: aisles, items (fruits a sub-entity) with ordered steps, tags (many-to-many).
    static func version1() throws -> ObjectModel {
        try model(version: 1)
    }

    /// Version 2: two new entities sorting first (every entity number moves), Aisle renamed Shelf
    /// and Item.name renamed title (renaming identifiers), Item.rating added with a default.
    static func version2() throws -> ObjectModel {
        try Support.renaming(try model(version: 2), ["Shelf": "Aisle", "Item.title": "name"])
    }

    /// Version 1 or 2 (without version 2's renaming identifiers).
    private static func model(version: Int) throws -> ObjectModel {
        let (aisle, name) = version == 1 ? ("Aisle", "name") : ("Shelf", "title")
        var builder = ModelBuilder("Pantry")
        if version == 2 {
            builder = builder.entity("Basket") { basket in basket.attribute("name", .string) }
                .entity("Bin") { bin in bin.attribute("name", .string) }
        }
        return
            try builder
            .entity(aisle) { entity in
                entity.attribute("name", .string)
                entity.toMany("items", "Item", inverse: "aisle")
            }
            .entity("Item") { item in
                item.attribute(name, .string)
                item.attribute("price", .double)
                item.attribute("bought", .date)
                if version == 2 { item.attribute("rating", .integer16, optional: false, default: .integer(3)) }
                item.toOne("aisle", aisle, inverse: "items")
                item.toMany("steps", "Step", inverse: "item", ordered: true)
                item.toMany("tags", "Tag", inverse: "items")
            }
            .entity("Fruit", parent: "Item") { fruit in fruit.attribute("sweetness", .integer16) }
            .entity("Step") { step in
                step.attribute("text", .string)
                step.toOne("item", "Item", inverse: "steps")
            }
            .entity("Tag") { tag in
                tag.attribute("label", .string)
                tag.toMany("items", "Item", inverse: "tags")
            }
            .build()
    }

    static func versions() throws -> ModelVersionSet {
        try Support.versions([("Pantry", try version1()), ("Pantry 2", try version2())])
    }

    /// The same objects in either version, inserted in the same order (so with the same keys).
    static func fill(_ context: ObjectContext, version: Int) throws {
        let (aisleEntity, name) = version == 1 ? ("Aisle", "name") : ("Shelf", "title")
        var aisles: [ManagedObject] = []
        for index in 0..<3 {
            let aisle = try context.insert(aisleEntity)
            try aisle.set("name", "Aisle \(index)")
            aisles.append(aisle)
        }
        var items: [ManagedObject] = []
        for index in 0..<12 {
            let item = try context.insert(index % 4 == 0 ? "Fruit" : "Item")
            try item.set(name, "Item \(index)")
            try item.set("price", Double(index) + 0.5)
            try item.set("bought", Date(timeIntervalSinceReferenceDate: 86_400 * Double(index)))
            if index % 4 == 0 { try item.set("sweetness", Int16(index)) }
            if index % 5 != 0 { try item.setRelated("aisle", to: aisles[index % 3]) }
            items.append(item)
        }
        for (index, item) in items.enumerated() where index % 3 == 0 {
            var steps: [ManagedObject] = []
            for step in ["b", "a", "c"] {
                let object = try context.insert("Step")
                try object.set("text", "\(step) of \(index)")
                steps.append(object)
            }
            try item.setRelatedObjects("steps", to: steps)
        }
        for tagIndex in 0..<4 {
            let tag = try context.insert("Tag")
            try tag.set("label", "Tag \(tagIndex)")
            for (index, item) in items.enumerated() where index % (tagIndex + 2) == 0 { try item.add(tag, to: "tags") }
        }
    }

    /// A Core Data–layout store of `model` at `name`, filled with ``fill(_:version:)``.
    static func store(
        _ scratch: Scratch, _ name: String, model: ObjectModel, version: Int, uuid: UUID? = nil,
        metadata: [String: String] = [:]
    ) throws -> String {
        try Support.store(
            at: scratch.file(name), model: model, uuid: uuid, metadata: metadata, layout: .coreData
        ) { try fill($0, version: version) }
    }

    /// Every table's and index's name and statement, sorted.
    static func schema(_ path: String) throws -> [[String]] {
        try Support.rows("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name", in: path)
    }

    /// Every row of every table but `Z_METADATA` (which holds the store's own UUID and keys), by table, sorted.
    static func contents(_ path: String) throws -> [String: [[String]]] {
        var contents: [String: [[String]]] = [:]
        for table in try Support.rows("SELECT name FROM sqlite_master WHERE type = 'table'", in: path).map({ $0[0] })
        where table != "Z_METADATA" {
            contents[table] = try Support.rows("SELECT * FROM \(SQLiteIdentifier.quote(table))", in: path).sorted {
                $0.lexicographicallyPrecedes($1)
            }
        }
        return contents
    }

    /// Adds an app key whose value is not text (`DefaultDataImported`, a Boolean) to the store's `Z_METADATA`.
    static func addBooleanKey(to path: String) throws {
        let connection = try SQLiteConnection(path: path, mode: .readWrite)
        defer { connection.close() }
        let row = try connection.prepare("SELECT Z_PLIST FROM Z_METADATA")
        guard try row.step(), var dictionary = try PropertyListReader().read(row.data(0)).dictionaryValue else {
            Issue.record("no metadata row")
            return
        }
        row.reset()
        dictionary["DefaultDataImported"] = .boolean(true)
        let update = try connection.prepare("UPDATE Z_METADATA SET Z_PLIST = ?")
        update.bind(blob: BinaryPropertyListWriter().write(.dictionary(dictionary.sortedByKey())), at: 1)
        try update.execute()
    }

    @Test func anInferredStepGivesTheNewVersionsCoreDataLayout() async throws {
        let scratch = try Scratch()
        let (old, new) = (try Self.version1(), try Self.version2())
        let uuid = UUID()
        let path = try Self.store(
            scratch, "Pantry.sqlite", model: old, version: 1, uuid: uuid, metadata: ["seed.version": "1"])
        try Self.addBooleanKey(to: path)
        #expect(try Support.rows("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Item'", in: path) == [["2"]])
        #expect(try Self.schema(path).contains { $0[1] == "Z_2TAGS" })

        let report = try await Support.migrate(path, versions: try Self.versions())
        #expect(report.passes.map(\.kind) == [.inferred])
        #expect(report.from == "Pantry" && report.to == "Pantry 2")
        #expect(report.entities["Item"] == MigrationReport.EntityCounts(kept: 9, created: 0, dropped: 0))
        #expect(report.entities["Shelf"] == MigrationReport.EntityCounts(kept: 3, created: 0, dropped: 0))

        let expected = try Self.store(scratch, "Expected.sqlite", model: new, version: 2)
        #expect(try Support.differences(path, expected, model: new) == [])
        // Core Data's layout of version 2, row for row: Z_PRIMARYKEY (numbers, parents, Z_MAX),
        // the entity tables (Z_ENT and companion columns renumbered), the join table Z_3TAGS.
        #expect(try Self.schema(path) == Self.schema(expected))
        #expect(try Self.contents(path) == Self.contents(expected))
        #expect(
            try Support.rows("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT", in: path) == [
                ["1", "Basket", "0"], ["2", "Bin", "0"], ["3", "Item", "0"], ["4", "Fruit", "3"], ["5", "Shelf", "0"],
                ["6", "Step", "0"], ["7", "Tag", "0"],
            ])
        #expect(try Support.rows("SELECT count(*) FROM Z_3TAGS", in: path) == [["16"]])

        let metadata = try Support.metadata(path)
        let expectedMetadata = try Support.metadata(expected)
        #expect(metadata.layout == "core-data")
        #expect(metadata.coreDataEntityHashes == new.coreDataVersionHashes.entityHashes)
        for key in ["NSStoreModelVersionHashesDigest", "NSStoreModelVersionChecksumKey", "NSStoreType"] {
            #expect(metadata[key] != nil && metadata[key] == expectedMetadata[key])
        }
        #expect(metadata.storeUUID == uuid.uuidString)
        #expect(metadata["seed.version"] == "1")
        #expect(metadata[PassBuilder.migrationFromKey] == old.versionHash)
        #expect(metadata.propertyList?["DefaultDataImported"] == .boolean(true))
        #expect(metadata.modelHash == nil && metadata[StoreMetadata.Key.modelJSON] == nil)
        #expect(try Support.rows("SELECT name FROM sqlite_master WHERE name LIKE 'seedkit%'", in: path) == [])
        #expect(Support.leftovers(beside: path) == [])

        // The store is now at version 2: nothing more to do, and not a byte changes.
        let bytes = try Support.bytes(path)
        let again = try await Support.migrate(path, versions: try Self.versions())
        #expect(!again.changed && again.passes.isEmpty)
        #expect(try Support.bytes(path) == bytes)
    }

    @Test func theSameInputGivesByteIdenticalCoreDataFiles() async throws {
        let scratch = try Scratch()
        let uuid = UUID()
        let first = try Self.store(scratch, "First.sqlite", model: try Self.version1(), version: 1, uuid: uuid)
        let second = scratch.file("Second.sqlite")
        try FileManager.default.copyItem(atPath: first, toPath: second)
        var options = MigrationOptions()
        options.batchSize = 5
        for path in [first, second] { try await Support.migrate(path, versions: try Self.versions(), options: options) }
        #expect(try Support.bytes(first) == Support.bytes(second))
    }

    @Test func refusalsLeaveTheCoreDataStoreAsItWas() async throws {
        let scratch = try Scratch()
        let path = try Self.store(scratch, "Pantry.sqlite", model: try Self.version1(), version: 1)
        let bytes = try Support.bytes(path)

        // A store at none of the versions: a Core Data store holds no model to migrate from.
        var other = try Self.version1().entityDescriptions
        other[0].attributes.append(AttributeDescription(name: "extra", type: .string))
        let unknown = try Support.versions([
            ("Other", try ObjectModel(name: "Pantry", entities: other)), ("Pantry 2", try Self.version2()),
        ])
        await #expect {
            try await Support.migrate(path, versions: unknown)
        } throws: { error in
            guard case .unknownSourceVersion = (error as? MigrationError)?.kind else { return false }
            return "\(error)".contains("a Core Data store holds no model")
        }
        // The data-loss gate: version 1 → a version without Item.price drops its 12 values.
        var lossy = try Self.version2().entityDescriptions
        let item = try #require(lossy.firstIndex { $0.name == "Item" })
        lossy[item].attributes.removeAll { $0.name == "price" }
        var options = MigrationOptions()
        options.allowDataLoss = false
        await #expect {
            try await Support.migrate(
                path,
                versions: try Support.versions([
                    ("Pantry", try Self.version1()), ("Pantry 2", try ObjectModel(name: "Pantry", entities: lossy)),
                ]), options: options)
        } throws: { error in
            guard case .dataLoss(let lines) = (error as? MigrationError)?.kind else { return false }
            return lines == ["Item.price: 12 values"]
        }
        // A version Core Data's layout cannot be predicted for (a many-to-many with both sides
        // on Tag, whose join table's name only a store Core Data made tells).
        var unpredictable = try Self.version1().entityDescriptions
        let tag = try #require(unpredictable.firstIndex { $0.name == "Tag" })
        for (name, inverse) in [("related", "relatedTo"), ("relatedTo", "related")] {
            unpredictable[tag].relationships.append(
                RelationshipDescription(name: name, destination: "Tag", inverse: inverse, isToMany: true))
        }
        await #expect {
            try await Support.migrate(
                path,
                versions: try Support.versions([
                    ("Pantry", try Self.version1()),
                    ("Pantry 2", try ObjectModel(name: "Pantry", entities: unpredictable)),
                ]))
        } throws: { error in
            "\(error)".contains("Pantry 2 cannot be laid out in the store's layout")
        }
        #expect(try Support.bytes(path) == bytes)
        #expect(Support.leftovers(beside: path) == [])
    }

    // MARK: - CoreDataPlus's chain

    typealias Plus = CoreDataPlusMappingTests

    /// CoreDataPlus's SampleModel → SampleModel3 (an inferred pass with a rename, then the V2toV3
    /// mapping model and its policy) on a Core Data store and on a SeedKit store of the same
    /// objects: the same object graph, laid out as Core Data lays out SampleModel3.
    @Test func coreDataPlusChainGivesSampleModel3sCoreDataLayout() async throws {
        let scratch = try Scratch()
        let versions = try Plus.versions()
        let (first, last) = (try versions.model(named: "SampleModel"), try versions.model(named: "SampleModel3"))
        let path = try Support.store(
            at: scratch.file("Cars.sqlite"), model: first, layout: .coreData, Plus.fillVersion1)
        let plain = try Support.store(at: scratch.file("Plain.sqlite"), model: first, Plus.fillVersion1)
        var policies = MigrationPolicies()
        policies.register("V2to3MakerPolicy", Plus.MakerPolicy())
        var options = MigrationOptions()
        options.target = "SampleModel3"
        var reports: [MigrationReport] = []
        for store in [path, plain] {
            reports.append(
                try await Support.migrate(
                    store, versions: versions, mappings: [try Plus.mapping()], options: options, policies: policies))
        }
        #expect(reports[0].passes.map(\.kind) == [.inferred, .mapping])
        #expect(reports[0].entities == reports[1].entities)
        #expect(reports[0].dataDropped == reports[1].dataDropped)
        #expect(try Support.differences(path, plain, model: last) == [])

        // Core Data's layout of SampleModel3: an empty store of it has the same tables, indexes
        // and entity numbers (Maker takes 4, Person moves from 4 to 5).
        let empty = try Support.store(at: scratch.file("Empty.sqlite"), model: last, layout: .coreData)
        #expect(try Self.schema(path) == Self.schema(empty))
        let numbers = "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT"
        #expect(try Support.rows(numbers, in: path) == Support.rows(numbers, in: empty))
        #expect(
            try Support.rows("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME IN ('Maker', 'Person')", in: path) == [
                ["4"], ["5"],
            ])
        for (table, name) in [("ZCAR", "Car"), ("ZMAKER", "Maker"), ("ZPERSON", "Person")] {
            #expect(
                try Support.rows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = '\(name)'", in: path)
                    == Support.rows("SELECT max(Z_PK) FROM \(table)", in: path))
        }
        #expect(try Support.metadata(path).coreDataEntityHashes == last.coreDataVersionHashes.entityHashes)
        #expect(Support.leftovers(beside: path) == [])
    }
}
