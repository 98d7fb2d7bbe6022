// A small catalog store for the fetch tests: a model with every attribute type, to-one chains,
// a sub-entity and a many-to-many; rows inserted with plain SQL; queries run and their pks read;
// and in-memory mirrors of the rows (`FixtureObject`) for the evaluator.
import Foundation
import Testing

@testable import GraphStore

/// An in-memory store of the test model, with helpers to insert rows and run fetch SQL.
struct FetchFixture {
    let model: ObjectModel
    let store: PersistentStore
    let connection: SQLiteConnection
    /// The store UUID of the fixture's object IDs.
    let storeUUID = UUID()
    /// Every inserted row, as an object the evaluator can see.
    private(set) var objects: [String: [Int64: FixtureObject]] = [:]

    /// Product(name, price, quantity, listed, added, notes?, cost: Decimal, code: UUID, link: URI,
    /// photo: Data, unit → Unit, tags ↔ Tag), Perishable: Product (+ expires),
    /// Unit(name, location → Location), Location(aisle), Tag(name).
    static func makeModel() throws -> ObjectModel {
        try ModelBuilder("FetchTests")
            .entity("Product") { product in
                product.attribute("name", .string)
                product.attribute("price", .double)
                product.attribute("quantity", .integer32)
                product.attribute("listed", .boolean)
                product.attribute("added", .date)
                product.attribute("notes", .string)
                product.attribute("cost", .decimal)
                product.attribute("code", .uuid)
                product.attribute("link", .uri)
                product.attribute("photo", .binary)
                product.attribute("scratch", .string, transient: true)
                product.toOne("unit", "Unit", inverse: "products")
                product.toMany("tags", "Tag", inverse: "products")
            }
            .entity("Perishable", parent: "Product") { perishable in
                perishable.attribute("expires", .date)
            }
            .entity("Unit") { unit in
                unit.attribute("name", .string)
                unit.toOne("location", "Location", inverse: "units")
                unit.toMany("products", "Product", inverse: "unit")
            }
            .entity("Location") { location in
                location.attribute("aisle", .string)
                location.toMany("units", "Unit", inverse: "location")
            }
            .entity("Tag") { tag in
                tag.attribute("name", .string)
                tag.toMany("products", "Product", inverse: "tags")
            }
            .build()
    }

    init() throws {
        model = try Self.makeModel()
        store = try PersistentStore.inMemory(model: model)
        connection = try store.makeConnection()
        try SQLFunctions.register(on: connection)
    }

    func entity(_ name: String) throws -> ModelEntity {
        try #require(model.entity(named: name))
    }

    /// The ID of row `pk` of `entity`.
    func id(_ entity: String, _ pk: Int64) throws -> ObjectID {
        ObjectID(storeUUID: storeUUID, entityID: store.layout.number(of: try self.entity(entity)), key: pk)
    }

    /// Inserts a row of `entityName` with attribute values and to-one foreign keys (as `.integer`).
    mutating func insert(_ entityName: String, _ pk: Int64, _ values: [String: AttributeValue?] = [:]) throws {
        let entity = try self.entity(entityName)
        let names = values.keys.sorted()
        let columns = (["pk", "ent", "opt"] + names.map(SQLiteIdentifier.quote)).joined(separator: ", ")
        let parameters = Array(repeating: "?", count: names.count + 3).joined(separator: ", ")
        let insert = try connection.prepare(
            "INSERT INTO \(SQLiteIdentifier.quote(store.layout.table(of: entity)))(\(columns)) VALUES (\(parameters))")
        insert.bind(pk, at: 1)
        insert.bind(store.layout.number(of: entity), at: 2)
        insert.bind(Int64(1), at: 3)
        for (index, name) in names.enumerated() {
            insert.bind(values[name] ?? nil, at: Int32(index + 4), encoding: store.layout.values)
        }
        try insert.execute()
        let object = FixtureObject(id: try id(entityName, pk), entity: entity, values: values.compactMapValues { $0 })
        objects[store.layout.table(of: entity), default: [:]][pk] = object
    }

    /// Runs a query and returns the first column of each row.
    func integers(_ query: SQLQuery) throws -> [Int64] {
        let statement = try connection.prepare(query.sql)
        for (index, value) in query.bindings.enumerated() {
            statement.bind(value, at: Int32(index + 1), encoding: store.layout.values)
        }
        var result: [Int64] = []
        while try statement.step() { result.append(statement.int64(0)) }
        return result
    }

    /// The pks `request` selects, in order.
    func pks(_ request: FetchRequest) throws -> [Int64] {
        try integers(FetchQueryBuilder(layout: store.layout, request: request).selectQuery(columns: ["t0.pk"]))
    }

    /// The pks of `entity` rows matching `predicate`, in pk order.
    func pks(_ entity: String = "Product", _ predicate: FetchPredicate) throws -> [Int64] {
        try pks(FetchRequest(entityName: entity, predicate: predicate))
    }

    /// The pks of `entity` rows matching the format string.
    func pks(_ entity: String = "Product", format: String, _ arguments: any PredicateArgument...) throws -> [Int64] {
        try pks(entity, FetchPredicate(format: format, argumentArray: arguments))
    }

    /// The in-memory mirror of the row `pk` of the table of `entity`, with to-one relationships resolved.
    func object(_ entity: String, _ pk: Int64) throws -> FixtureObject {
        try #require(objects[store.layout.table(of: try self.entity(entity))]?[pk])
    }

    /// The mirrors of every row of `entity`'s table that are of a kind `entity` includes.
    func objects(of entityName: String) throws -> [FixtureObject] {
        let entity = try self.entity(entityName)
        return (objects[store.layout.table(of: entity)] ?? [:]).values.filter { $0.entity.isKind(of: entity) }
            .sorted { $0.id.key < $1.id.key }
    }

    /// The pks of `entity` rows the evaluator finds matching `predicate`, in pk order.
    func evaluatedPKs(_ entity: String = "Product", _ predicate: FetchPredicate) throws -> [Int64] {
        try objects(of: entity).filter { try PredicateEvaluator.evaluate(predicate, on: resolved($0)) }.map(\.id.key)
    }

    /// `object` with its to-one foreign keys replaced by the destination objects (recursively).
    func resolved(_ object: FixtureObject) throws -> FixtureObject {
        var object = object
        for relationship in object.entity.relationships where !relationship.isToMany {
            guard case .integer(let key)? = object.values[relationship.name] else { continue }
            let destination = model.destination(of: relationship)
            object.related[relationship.name] = try objects[store.layout.table(of: destination)]?[key].map(resolved)
            object.values[relationship.name] = nil
        }
        return object
    }
}

/// A row in memory: attribute values by name, and resolved to-one destinations.
struct FixtureObject: PredicateSubject {
    let id: ObjectID
    let entity: ModelEntity
    var values: [String: AttributeValue]
    var related: [String: FixtureObject] = [:]

    var subjectObjectID: ObjectID { id }

    func predicateValue(forKey key: String) throws -> PredicateOperand {
        if entity.attribute(named: key) != nil { return values[key].map(PredicateOperand.value) ?? .null }
        guard let relationship = entity.relationship(named: key) else {
            throw FetchError.unknownKeyPath(entity: entity.name, keyPath: key)
        }
        if relationship.isToMany { return .objects([]) }
        return related[key].map(PredicateOperand.object) ?? .null
    }
}
