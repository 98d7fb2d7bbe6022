// The rules of one on-disk layout: what it calls tables and columns, how it numbers entities,
// stores values, hands out keys, lays out its schema and keeps its metadata. SeedKit's own
// layout (SeedKitLayout, docs/StoreFormat.md) is one implementation; another layout (Core
// Data's) is another implementation of the same rules. A store resolves its rules once per
// model into a StoreLayout, which everything else asks.
// Invariant: for a given model, every answer depends only on the model (same model → same names,
// same statements, same order), so stores are reproducible byte for byte.

/// Every name a layout gives one model's store, by entity index and property slot.
package struct LayoutNames: Sendable {
    /// Each entity's number in the store (the entity column's value), by entity index.
    package let entityNumbers: [Int64]
    /// The table that holds each entity's rows (its root's table), by entity index.
    package let tables: [String]
    /// Each attribute's column, by entity index and attribute slot (a transient attribute's
    /// entry names no real column).
    package let attributeColumns: [[String]]
    /// How each relationship is kept, by entity index and relationship slot.
    package let relationshipStorage: [[RelationshipStorage]]
    /// For each to-one kept in a column: the column beside it that holds the destination's entity
    /// number, when the layout keeps one; by entity index and relationship slot.
    package let companionColumns: [[String?]]
    /// The join tables, in name order.
    package let joinTables: [JoinTableLayout]

    /// Names as a layout's rules give them (every array indexed by entity index, then slot).
    package init(
        entityNumbers: [Int64], tables: [String], attributeColumns: [[String]],
        relationshipStorage: [[RelationshipStorage]], companionColumns: [[String?]], joinTables: [JoinTableLayout]
    ) {
        self.entityNumbers = entityNumbers
        self.tables = tables
        self.attributeColumns = attributeColumns
        self.relationshipStorage = relationshipStorage
        self.companionColumns = companionColumns
        self.joinTables = joinTables
    }
}

/// The rules of one store layout.
package protocol StoreLayoutRules: Sendable {
    /// The layout's name (`seedkit`).
    var name: String { get }
    /// The key column of every entity table, a bare SQL identifier (`pk`).
    var keyColumn: String { get }
    /// The column holding each row's entity number, a bare SQL identifier (`ent`).
    var entityColumn: String { get }
    /// The row-version column, a bare SQL identifier (`opt`).
    var versionColumn: String { get }
    /// How attribute values are stored.
    var values: ValueEncoding { get }
    /// The prefix of every name the store layer makes for itself beside the model's tables:
    /// bookkeeping tables, TEMP scratch tables, triggers, savepoints (`seedkit_`).
    var reservedPrefix: String { get }
    /// The table of the run journal's undo log (docs/Architecture.md "Runs").
    var journalTable: String { get }
    /// The table of the seed record of the entity table `table` (SeedRecord; docs/StoreFormat.md
    /// "Seed record"): an extra table, made only in seeds and in stores a seed was brought into.
    func seedRecordTable(of table: String) -> String

    /// Every name of the store of `model`.
    func names(for model: ObjectModel) -> LayoutNames

    /// Whether the database on `connection` is laid out by these rules.
    func recognizes(_ connection: SQLiteConnection) throws -> Bool

    /// Creates a new store's tables (and, with `indexes`, its indexes) and writes `metadata`,
    /// inside the caller's transaction.
    func createSchema(
        of layout: StoreLayout, metadata: StoreMetadata, indexes: Bool, on connection: SQLiteConnection
    ) throws

    /// The store's `CREATE INDEX IF NOT EXISTS` statements, in a fixed order.
    func indexStatements(of layout: StoreLayout) -> [String]

    /// The highest key in use in the table of `root` (0 for none): new rows take keys above it.
    func highestKey(ofRoot root: ModelEntity, in layout: StoreLayout, on connection: SQLiteConnection) throws -> Int64

    /// After rows were written into `root`'s table with keys above ``highestKey(ofRoot:in:on:)``,
    /// inside the same transaction: brings the layout's key counter, if it keeps one, up to the
    /// table's highest key, so that the next writer (this library or the app) hands out keys above it.
    func coverKeys(ofRoot root: ModelEntity, in layout: StoreLayout, on connection: SQLiteConnection) throws

    /// The store's metadata, read inside whatever transaction is open.
    ///
    /// - Throws: ``StoreError`` (`.notAStore`) when the database has no metadata of this layout.
    func readMetadata(on connection: SQLiteConnection, path: String) throws -> StoreMetadata

    /// Sets each key to its value, or removes it when the value is nil, inside the caller's transaction.
    func writeMetadata(_ values: [String: String?], on connection: SQLiteConnection) throws

    /// Registers on `connection` the SQL functions that the layout's own schema calls (its
    /// triggers), callable by the schema (``SQLiteFunctionCallers/schemaToo``): every connection
    /// to a store of this layout has them, and so does the one that checks a store's schema when
    /// it is opened (a schema calling any other function is refused: docs/Security.md).
    func registerSchemaFunctions(on connection: SQLiteConnection) throws
}

extension StoreLayoutRules {
    /// A layout whose schema calls no function registers none.
    package func registerSchemaFunctions(on connection: SQLiteConnection) throws {}
}
