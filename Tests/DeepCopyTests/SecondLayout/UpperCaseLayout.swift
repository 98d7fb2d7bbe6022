// A second store layout, for tests only: what adding a layout takes, and proof that everything
// asks the layout contract. It differs from SeedKit's wherever a layout can: `Z`-prefixed
// upper-case names, key/entity/version columns `Z_PK`/`Z_ENT`/`Z_OPT`, entity numbers in reverse
// name order, dates since 2001, decimals as REAL, companion entity columns beside to-ones to
// entities with sub-entities, join tables with their own column names, a key counter table
// (`Z_PRIMARYKEY.Z_MAX`, as Core Data keeps), metadata in `Z_META` and its own reserved names.
// It lives with the copy's tests because they use it on both sides of a copy and a diff.
import Foundation
import GraphStore

/// Test-only layout rules with different names, numbers and encodings.
struct UpperCaseLayout: StoreLayoutRules {
    let name = "test-upper-case"
    let keyColumn = "Z_PK"
    let entityColumn = "Z_ENT"
    let versionColumn = "Z_OPT"
    let values = ValueEncoding(dates: .reference2001, decimals: .real)
    let reservedPrefix = "zt_"
    let journalTable = "zt_undo"

    func seedRecordTable(of table: String) -> String { "zt_seed_" + table }

    /// Store options that create a store in this layout.
    static var options: StoreOptions {
        var options = StoreOptions()
        options.layoutRules = UpperCaseLayout()
        return options
    }

    func names(for model: ObjectModel) -> LayoutNames {
        let numbers = model.entities.map { Int64(model.entities.count - $0.index) }
        let kept = model.entities.map { entity in
            entity.relationships.map { storage(of: $0, model: model, numbers: numbers) }
        }
        return LayoutNames(
            entityNumbers: numbers,
            tables: model.entities.map { "Z" + model.root(of: $0).name.uppercased() },
            attributeColumns: model.entities.map { $0.attributes.map { "Z" + $0.name.uppercased() } },
            relationshipStorage: kept,
            companionColumns: model.entities.map { entity in
                entity.relationships.map { relationship in
                    let destination = model.destination(of: relationship)
                    guard !relationship.isToMany, !relationship.isTransient, !destination.subentityIndices.isEmpty
                    else { return nil }
                    return "Z\(numbers[destination.index])_" + relationship.name.uppercased()
                }
            },
            joinTables: joinTables(of: model, storage: kept))
    }

    private func storage(of relationship: ModelRelationship, model: ObjectModel, numbers: [Int64])
        -> RelationshipStorage
    {
        if relationship.isTransient { return .transient }
        if !relationship.isToMany { return .foreignKey(column: "Z" + relationship.name.uppercased()) }
        let inverse = model.inverse(of: relationship)
        if let inverse, !inverse.isToMany {
            let column = "Z" + inverse.name.uppercased()
            return .inverseForeignKey(column: column, orderColumn: relationship.isOrdered ? "Z_FOK" + column : nil)
        }
        // The side whose (entity, name) sorts first owns the join table; without an inverse, the relationship.
        let owner =
            inverse.map { (relationship.declaringEntity, relationship.name) < ($0.declaringEntity, $0.name) } ?? true
        let owning = owner ? relationship : inverse ?? relationship
        let owningEntity = model.entity(named: owning.declaringEntity) ?? model.entities[0]
        let table = "Z_\(numbers[owningEntity.index])" + owning.name.uppercased()
        let (mine, theirs) = owner ? ("Z_OWNER", "Z_MEMBER") : ("Z_MEMBER", "Z_OWNER")
        return .joinTable(
            table: table, sourceColumn: mine, destinationColumn: theirs,
            orderColumn: relationship.isOrdered ? "Z_FOK_" + mine : nil)
    }

    private func joinTables(of model: ObjectModel, storage: [[RelationshipStorage]]) -> [JoinTableLayout] {
        var tables: [String: JoinTableLayout] = [:]
        for entity in model.entities {
            for relationship in entity.relationships where relationship.declaringEntity == entity.name {
                guard case .joinTable(let table, let source, _, _) = storage[entity.index][relationship.index],
                    source == "Z_OWNER"
                else { continue }
                let orders = [relationship, model.inverse(of: relationship)].compactMap { side in
                    side.flatMap { side -> JoinTableLayout.Order? in
                        guard let declaring = model.entity(named: side.declaringEntity),
                            case .joinTable(_, let owner, _, let order?) = storage[declaring.index][side.index]
                        else { return nil }
                        return JoinTableLayout.Order(column: order, ownerColumn: owner)
                    }
                }
                tables[table] = JoinTableLayout(
                    name: table, firstColumn: "Z_OWNER", secondColumn: "Z_MEMBER", firstRootIndex: entity.rootIndex,
                    secondRootIndex: model.destination(of: relationship).rootIndex,
                    orders: orders.sorted { $0.column < $1.column })
            }
        }
        return tables.keys.sorted().compactMap { tables[$0] }
    }

    func recognizes(_ connection: SQLiteConnection) throws -> Bool {
        try connection.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'Z_META'").step()
    }

    func createSchema(of layout: StoreLayout, metadata: StoreMetadata, indexes: Bool, on connection: SQLiteConnection)
        throws
    {
        try connection.execute("CREATE TABLE Z_META(Z_KEY TEXT PRIMARY KEY NOT NULL, Z_VALUE)")
        try connection.execute("CREATE TABLE Z_PRIMARYKEY(Z_ENT INTEGER PRIMARY KEY, Z_MAX INTEGER NOT NULL)")
        for root in layout.roots {
            let columns = layout.dataColumns(ofRoot: root).map { SQLiteIdentifier.quote($0.name) }
            try connection.execute(
                "CREATE TABLE \(SQLiteIdentifier.quote(layout.table(of: root)))"
                    + "(Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER NOT NULL, Z_OPT INTEGER NOT NULL"
                    + columns.map { ", " + $0 }.joined() + ")")
            try connection.execute("INSERT INTO Z_PRIMARYKEY(Z_ENT, Z_MAX) VALUES (\(layout.number(of: root)), 0)")
        }
        for table in layout.joinTables {
            try connection.execute(
                "CREATE TABLE \(SQLiteIdentifier.quote(table.name))(Z_OWNER INTEGER NOT NULL, Z_MEMBER INTEGER NOT NULL"
                    + table.orders.map { ", " + $0.column }.joined() + ", PRIMARY KEY (Z_OWNER, Z_MEMBER))")
        }
        if indexes {
            for statement in indexStatements(of: layout) { try connection.execute(statement) }
        }
        try writeMetadata(metadata.values, on: connection)
    }

    /// One unique index per unique constraint (saves rely on them to find clashes).
    func indexStatements(of layout: StoreLayout) -> [String] {
        layout.model.entities.flatMap { entity in
            entity.declaration.uniqueConstraints.map { constraint in
                let columns = constraint.compactMap { layout.column(ofProperty: $0, in: entity) }
                return "CREATE UNIQUE INDEX IF NOT EXISTS \(SQLiteIdentifier.quote("Z_UNIQUE_" + entity.name))"
                    + " ON \(SQLiteIdentifier.quote(layout.table(of: entity)))("
                    + columns.map(SQLiteIdentifier.quote).joined(separator: ", ") + ")"
            }
        }
    }

    func highestKey(ofRoot root: ModelEntity, in layout: StoreLayout, on connection: SQLiteConnection) throws -> Int64 {
        let statement = try connection.cachedStatement(
            "SELECT max((SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?), "
                + "(SELECT coalesce(max(Z_PK), 0) FROM \(SQLiteIdentifier.quote(layout.table(of: root)))))")
        defer { statement.reset() }
        statement.bind(layout.number(of: root), at: 1)
        return try statement.step() ? statement.int64(0) : 0
    }

    func coverKeys(ofRoot root: ModelEntity, in layout: StoreLayout, on connection: SQLiteConnection) throws {
        try connection.execute(
            "UPDATE Z_PRIMARYKEY SET Z_MAX = max(Z_MAX, (SELECT coalesce(max(Z_PK), 0) FROM "
                + "\(SQLiteIdentifier.quote(layout.table(of: root))))) WHERE Z_ENT = \(layout.number(of: root))")
    }

    func readMetadata(on connection: SQLiteConnection, path: String) throws -> StoreMetadata {
        guard try recognizes(connection) else { throw StoreError(.notAStore, path: path) }
        let statement = try connection.prepare("SELECT Z_KEY, Z_VALUE FROM Z_META")
        var values: [String: String] = [:]
        while try statement.step() { values[statement.string(0)] = statement.string(1) }
        return StoreMetadata(values: values)
    }

    func writeMetadata(_ values: [String: String?], on connection: SQLiteConnection) throws {
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            let statement = try connection.prepare(
                value == nil
                    ? "DELETE FROM Z_META WHERE Z_KEY = ?"
                    : "INSERT INTO Z_META(Z_KEY, Z_VALUE) VALUES (?, ?) ON CONFLICT(Z_KEY) DO UPDATE SET Z_VALUE = excluded.Z_VALUE"
            )
            statement.bind(text: key, at: 1)
            if let value { statement.bind(text: value, at: 2) }
            try statement.execute()
        }
    }
}
