// The rules of one on-disk layout: what it calls tables and columns, how it numbers entities,
// stores values, hands out keys, lays out its schema and keeps its metadata, which models it can
// lay out and which it can open a store with. SeedKit's own layout (SeedKitLayout,
// docs/StoreFormat.md) is one implementation; Core Data's (CoreDataLayout,
// docs/CoreDataStores.md) is another. A store resolves its rules once per model into a
// StoreLayout, which everything else asks.
// Invariant: for a given model (and, for rules read from a file, that file's schema), every
// answer depends only on the model (same model → same names, same statements, same order), so
// stores are reproducible byte for byte.
import Foundation

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

    /// Writes the keys of `metadata` (read from another store of this layout) that are not text,
    /// and so not among its values, into this store's metadata, inside the caller's transaction:
    /// what a store rebuilt from another (a migration's result) carries over beside
    /// ``writeMetadata(_:on:)``'s keys. Keys of the layout itself are not written.
    func writeNonTextMetadata(of metadata: StoreMetadata, on connection: SQLiteConnection) throws

    /// Registers on `connection` the SQL functions that the layout's own schema calls (its
    /// triggers), callable by the schema (``SQLiteFunctionCallers/schemaToo``): every connection
    /// to a store of this layout has them, and so does the one that checks a store's schema when
    /// it is opened (a schema calling any other function is refused: docs/Security.md).
    func registerSchemaFunctions(on connection: SQLiteConnection) throws

    /// Why a store holding `metadata` cannot be opened with `model`: one line per difference
    /// (empty when it can).
    func differences(between model: ObjectModel, and metadata: StoreMetadata) -> [String]

    /// The model a store holding `metadata` embeds.
    ///
    /// - Throws: ``StoreError`` (`.modelNotStored`) when the layout keeps no model, or
    ///   ``ModelError`` when the embedded model cannot be read.
    func storedModel(in metadata: StoreMetadata, path: String) throws -> ObjectModel

    /// The number of objects of each concrete entity, by entity name, read from the database on
    /// `connection` without a model (from what the store records of its entities); nil when the
    /// layout records no entity names.
    func entityCounts(on connection: SQLiteConnection) throws -> [String: Int]?

    /// Settings of a new, empty database that take effect only before its first table (page
    /// size, auto-vacuum): run outside any transaction, before ``createSchema(of:metadata:indexes:on:)``.
    func prepareNewDatabase(_ connection: SQLiteConnection) throws

    /// These rules as they apply to the database at `path`, open on `connection`: a layout whose
    /// names depend on more than the model (Core Data's join tables between two relationships of
    /// one entity; where the files of external binary data live) learns it here.
    func reading(_ connection: SQLiteConnection, path: String) throws -> any StoreLayoutRules

    /// What of `model` these rules cannot lay out, or (for rules read from a file) what the file
    /// lacks for it: one sentence each, empty when the store can be used.
    func problems(storing model: ObjectModel) -> [String]

    /// Whether a store keeps tables of the library's own between runs (the run journal's undo
    /// table, SQLite's statistics). When false — Core Data's layout — a run creates what it needs
    /// and removes it when it ends, and a shipped store holds only the layout's own tables.
    var keepsLibraryTables: Bool { get }

    /// How the values of binary attributes that allow external storage are stored.
    var externalBinaryValues: ValueEncoding { get }
}

extension StoreLayoutRules {
    /// A layout whose schema calls no function registers none.
    package func registerSchemaFunctions(on connection: SQLiteConnection) throws {}

    /// The default for layouts that keep SeedKit's metadata keys: the model's hash must equal
    /// `model.hash`; the differences are named from the embedded model.
    package func differences(between model: ObjectModel, and metadata: StoreMetadata) -> [String] {
        guard model.versionHash != metadata.modelHash else { return [] }
        let differences = (try? metadata.model(source: "store")).map { ModelDifference.between($0, model) } ?? []
        return differences.isEmpty ? ["model hash differs"] : differences
    }

    /// The default for layouts that keep SeedKit's metadata keys: the model in `model.json`.
    package func storedModel(in metadata: StoreMetadata, path: String) throws -> ObjectModel {
        try metadata.model(source: path)
    }

    /// By default every metadata value is text: nothing more to write.
    package func writeNonTextMetadata(of metadata: StoreMetadata, on connection: SQLiteConnection) throws {}

    /// By default a layout records no entity names: counts need the model.
    package func entityCounts(on connection: SQLiteConnection) throws -> [String: Int]? { nil }

    /// By default a new database needs nothing before its schema.
    package func prepareNewDatabase(_ connection: SQLiteConnection) throws {}

    /// By default the rules do not depend on the file.
    package func reading(_ connection: SQLiteConnection, path: String) throws -> any StoreLayoutRules { self }

    /// By default every model can be laid out.
    package func problems(storing model: ObjectModel) -> [String] { [] }

    /// By default a store keeps the library's tables between runs.
    package var keepsLibraryTables: Bool { true }

    /// By default external binary values are stored as any other.
    package var externalBinaryValues: ValueEncoding { values }
}
