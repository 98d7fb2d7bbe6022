// A store's layout for one model: its rules (StoreLayoutRules) resolved once into arrays indexed
// by entity index and property slot, so that every question — which table, which column, which
// entity number, how a relationship is kept, how a value is encoded, how keys are handed out,
// which statements read and write a row — is an array lookup on the hot paths. Everything that
// builds SQL over a store's tables asks it: contexts, fetch translation, saves, batch requests,
// prefetching, the run journal, the schema, metadata, the import's row writer, the deep copy,
// diff and export.
// Invariants: `names.*[i]` belong to `model.entities[i]`; entity numbers are positive and
// unique; every table and column name is used quoted (SQLiteIdentifier), while the fixed
// columns (key, entity, version, join-table keys) are bare identifiers that need no quoting.

/// One model's store layout.
///
/// ```swift
/// let layout = store.layout
/// layout.table(of: item)                 // "Item"
/// layout.column(of: price)               // "price"
/// layout.storage(of: tags)               // .joinTable(table: "Item_tags", …)
/// layout.number(of: item)                // the `ent` value of Item rows
/// ```
package final class StoreLayout: Sendable {
    /// The model the layout is for.
    package let model: ObjectModel
    /// The rules it was resolved from.
    package let rules: any StoreLayoutRules
    /// The key column of every entity table (bare identifier).
    package let keyColumn: String
    /// The entity-number column of every entity table (bare identifier).
    package let entityColumn: String
    /// The row-version column of every entity table (bare identifier).
    package let versionColumn: String
    /// How attribute values are stored.
    package let values: ValueEncoding
    /// The join tables, in name order.
    package let joinTables: [JoinTableLayout]
    private let names: LayoutNames
    /// Per entity index: the numbers of the entity and its descendants, ascending.
    private let kindNumbers: [[Int64]]
    /// Per entity number: the entity's index, -1 for numbers no entity has.
    private let indexByNumber: [Int]
    private let rowLayouts: [EntityRowLayout]
    private let joinTableIndexByName: [String: Int]

    /// The layout of `model`'s store under `rules`.
    package init(model: ObjectModel, rules: any StoreLayoutRules) {
        let names = rules.names(for: model)
        self.model = model
        self.rules = rules
        self.names = names
        keyColumn = rules.keyColumn
        entityColumn = rules.entityColumn
        versionColumn = rules.versionColumn
        values = rules.values
        joinTables = names.joinTables
        kindNumbers = model.entities.map { entity in entity.kindIndices.map { names.entityNumbers[$0] }.sorted() }
        var indexByNumber = [Int](repeating: -1, count: Int(names.entityNumbers.max() ?? 0) + 1)
        for (index, number) in names.entityNumbers.enumerated() { indexByNumber[Int(number)] = index }
        self.indexByNumber = indexByNumber
        joinTableIndexByName = Dictionary(
            uniqueKeysWithValues: names.joinTables.enumerated().map { ($1.name, $0) })
        rowLayouts = model.entities.map { entity in
            EntityRowLayout(entity: entity, model: model, names: names, rules: rules)
        }
    }

    // MARK: - Entities

    /// The number `entity` has in the store (the entity column's value).
    package func number(of entity: ModelEntity) -> Int64 {
        names.entityNumbers[entity.index]
    }

    /// The entity numbered `number`, if there is one.
    package func entity(number: Int64) -> ModelEntity? {
        guard number >= 0, number < indexByNumber.count, case let index = indexByNumber[Int(number)], index >= 0
        else { return nil }
        return model.entities[index]
    }

    /// The numbers of `entity` and all its descendants, ascending.
    package func kindNumbers(of entity: ModelEntity) -> [Int64] {
        kindNumbers[entity.index]
    }

    /// `kindNumbers(of: entity)` as SQL: `1, 2, 3`.
    package func kindList(of entity: ModelEntity) -> String {
        Self.list(kindNumbers[entity.index])
    }

    /// Comma-separated entity numbers, for `IN (…)`.
    package static func list(_ numbers: [Int64]) -> String {
        numbers.map(String.init).joined(separator: ", ")
    }

    /// Whether `other` lays out the same model by the same rules: their tables are alike,
    /// column for column, so rows can move between them as they are.
    package func isSame(as other: StoreLayout) -> Bool {
        rules.name == other.rules.name && model.versionHash == other.model.versionHash
    }

    /// The root entities, in entity order.
    package var roots: [ModelEntity] {
        model.entities.filter(\.isRoot)
    }

    // MARK: - Tables and columns

    /// The table holding `entity`'s rows (its root's table).
    package func table(of entity: ModelEntity) -> String {
        names.tables[entity.index]
    }

    /// The column of `attribute` (a transient attribute has none: check first).
    package func column(of attribute: ModelAttribute) -> String {
        names.attributeColumns[attribute.declaringEntityIndex][attribute.index]
    }

    /// How `relationship` is kept.
    package func storage(of relationship: ModelRelationship) -> RelationshipStorage {
        names.relationshipStorage[relationship.declaringEntityIndex][relationship.index]
    }

    /// The column beside a to-one's column holding its destination's entity number, when the
    /// layout keeps one.
    package func companionColumn(of relationship: ModelRelationship) -> String? {
        names.companionColumns[relationship.declaringEntityIndex][relationship.index]
    }

    /// The join table called `name`.
    package func joinTable(named name: String) -> JoinTableLayout? {
        joinTableIndexByName[name].map { joinTables[$0] }
    }

    /// The column of the stored attribute or to-one relationship `property` of `entity`, if it has one.
    package func column(ofProperty property: String, in entity: ModelEntity) -> String? {
        if let attribute = entity.attribute(named: property), !attribute.isTransient { return column(of: attribute) }
        if let relationship = entity.relationship(named: property),
            case .foreignKey(let column) = storage(of: relationship)
        {
            return column
        }
        return nil
    }

    /// What a column of an entity table holds.
    package enum ColumnContent: Sendable, Hashable {
        /// Values of an attribute of this type.
        case attribute(AttributeType)
        /// Keys of another row (a to-one) or entity numbers (its companion).
        case reference
        /// Positions of an ordered to-many's members.
        case position
    }

    /// Every column of `root`'s table but the key, entity and version columns: attributes and
    /// to-ones of the root and its descendants, companions, and the positions of ordered
    /// to-manys whose members live there; sorted by name.
    package func dataColumns(ofRoot root: ModelEntity) -> [(name: String, content: ColumnContent)] {
        var columns: [String: ColumnContent] = [:]
        for entity in model.entities where entity.rootIndex == root.index {
            for attribute in entity.attributes where !attribute.isTransient {
                columns[column(of: attribute)] = .attribute(attribute.type)
            }
            for relationship in entity.relationships {
                if case .foreignKey(let column) = storage(of: relationship) { columns[column] = .reference }
                if let companion = companionColumn(of: relationship) { columns[companion] = .reference }
            }
        }
        for entity in model.entities {
            for relationship in entity.relationships where relationship.declaringEntity == entity.name {
                if case .inverseForeignKey(_, let order?) = storage(of: relationship),
                    model.destination(of: relationship).rootIndex == root.index
                {
                    columns[order] = .position
                }
            }
        }
        return columns.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    // MARK: - Rows

    /// The statements that read and write `entity`'s rows, and which slots they bind.
    package func rows(of entity: ModelEntity) -> EntityRowLayout {
        rowLayouts[entity.index]
    }

    // MARK: - Keys

    /// The highest key in use in the table of `root` (0 for none); new rows take keys above it.
    package func highestKey(ofRoot root: ModelEntity, on connection: SQLiteConnection) throws -> Int64 {
        try rules.highestKey(ofRoot: root, in: self, on: connection)
    }

    /// After rows were written into `root`'s table with keys above ``highestKey(ofRoot:on:)``,
    /// inside the same transaction: brings the layout's key counter (if it keeps one) up to them.
    package func coverKeys(ofRoot root: ModelEntity, on connection: SQLiteConnection) throws {
        try rules.coverKeys(ofRoot: root, in: self, on: connection)
    }

    // MARK: - Schema, metadata and the store's own names

    /// Creates a new store's schema and writes `metadata` (inside the caller's transaction).
    package func createSchema(metadata: StoreMetadata, indexes: Bool, on connection: SQLiteConnection) throws {
        try rules.createSchema(of: self, metadata: metadata, indexes: indexes, on: connection)
    }

    /// The store's `CREATE INDEX IF NOT EXISTS` statements.
    package var indexStatements: [String] {
        rules.indexStatements(of: self)
    }

    /// The store's metadata.
    package func readMetadata(on connection: SQLiteConnection, path: String) throws -> StoreMetadata {
        try rules.readMetadata(on: connection, path: path)
    }

    /// Sets (nil: removes) metadata keys inside the caller's transaction.
    package func writeMetadata(_ values: [String: String?], on connection: SQLiteConnection) throws {
        try rules.writeMetadata(values, on: connection)
    }

    /// A name for something the store layer makes for itself (a TEMP table, a trigger, a
    /// savepoint) that no model table can have: `seedkit_` + `suffix`.
    package func reservedName(_ suffix: String) -> String {
        rules.reservedPrefix + suffix
    }

    /// The run journal's undo-log table.
    package var journalTable: String {
        rules.journalTable
    }

    /// The table of the seed record of `root`'s table (SeedRecord).
    package func seedRecordTable(ofRoot root: ModelEntity) -> String {
        rules.seedRecordTable(of: table(of: root))
    }
}

extension StoreLayout {
    /// The layouts SeedKit reads and writes, tried in this order when a store is opened.
    package static let knownRules: [any StoreLayoutRules] = [SeedKitLayout()]

    /// The rules of the database on `connection` — `preferred` when it recognises it, else the
    /// first known layout that does — or nil.
    package static func rules(of connection: SQLiteConnection, trying preferred: (any StoreLayoutRules)? = nil) throws
        -> (any StoreLayoutRules)?
    {
        for rules in (preferred.map { [$0] } ?? []) + knownRules where try rules.recognizes(connection) {
            return rules
        }
        return nil
    }
}
