// Core Data's SQLite layout (docs/CoreDataStores.md): what Core Data (and SwiftData) write for an
// Xcode model, so that SeedKit reads the stores apps make and writes stores an app opens without
// migration. `Z`-prefixed upper-case names, `Z_PK`/`Z_ENT`/`Z_OPT`, entity numbers in
// case-insensitive name order with sub-entities in pre-order, dates since 2001, decimals as REAL,
// marked external binary values, keys handed out from `Z_PRIMARYKEY.Z_MAX`, metadata in
// `Z_METADATA` as a binary property list. The names are in CoreDataNames, the schema in
// CoreDataSchema, the metadata in CoreDataMetadata.
// Invariants: rules made without a file depend only on the model; rules read from a file
// (`reading(_:path:)`) also know its tables (the join tables the model cannot predict) and where
// its external binary data lives, and say what the file lacks for a model (`problems`).
import Foundation

/// The rules of Core Data's layout.
package struct CoreDataLayout: StoreLayoutRules {
    package let name = "core-data"
    package let keyColumn = "Z_PK"
    package let entityColumn = "Z_ENT"
    package let versionColumn = "Z_OPT"
    package let values = ValueEncoding(dates: .reference2001, decimals: .real)
    package let reservedPrefix = "seedkit_"
    package let journalTable = "seedkit_undo"
    package var keepsLibraryTables: Bool { false }

    /// `seedkit_seed_T`: the seed record of the table `T` (made only when a seed upgrade merges
    /// into a Core Data store; a Core Data seed ships without one).
    package func seedRecordTable(of table: String) -> String {
        reservedPrefix + "seed_" + table
    }

    /// What the file these rules were read from holds (nil: rules for a new store).
    let file: CoreDataFile?

    /// Rules for a new store, from the model alone.
    package init() {
        file = nil
    }

    /// Rules for the file described by `file`.
    init(file: CoreDataFile) {
        self.file = file
    }

    package var externalBinaryValues: ValueEncoding {
        values.markingBinary(folder: file?.externalDataFolder)
    }

    package func reading(_ connection: SQLiteConnection, path: String) throws -> any StoreLayoutRules {
        CoreDataLayout(file: try CoreDataFile.read(on: connection, path: path))
    }

    // MARK: - Connections and new files

    /// The SQL functions Core Data's triggers for derived attributes call. Core Data uses them to
    /// tell its contexts which objects a trigger changed; here they do nothing, so rows can be
    /// written into a store whose schema has such triggers. They are innocuous (no side
    /// effects), so a store's own triggers may call them even when its schema is not trusted.
    static let derivedAttributeFunctions = [
        "NSCoreDataDATriggerUpdatedAffectedObjectValue", "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue",
    ]

    package func registerSchemaFunctions(on connection: SQLiteConnection) throws {
        for function in Self.derivedAttributeFunctions {
            try connection.registerFunction(
                name: function, argumentCount: 5, deterministic: false, callers: .schemaToo
            ) { _ in .null }
        }
    }

    /// Core Data's page size and incremental auto-vacuum, which take effect only before the
    /// first table.
    package func prepareNewDatabase(_ connection: SQLiteConnection) throws {
        try connection.execute("PRAGMA page_size = 4096")
        try connection.execute("PRAGMA auto_vacuum = 2")
    }

    // MARK: - Keys

    /// The highest key in use or handed out: the root's `Z_MAX` or the table's highest `Z_PK`,
    /// whichever is larger (old stores hold -1 in `Z_MAX`).
    package func highestKey(ofRoot root: ModelEntity, in layout: StoreLayout, on connection: SQLiteConnection) throws
        -> Int64
    {
        let statement = try connection.cachedStatement(
            "SELECT max(coalesce((SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?), 0), "
                + "(SELECT coalesce(max(Z_PK), 0) FROM \(SQLiteIdentifier.quote(layout.table(of: root)))))")
        defer { statement.reset() }
        statement.bind(layout.number(of: root), at: 1)
        return try statement.step() ? statement.int64(0) : 0
    }

    /// Raises the root's `Z_MAX` to the table's highest `Z_PK`, so Core Data hands out keys above it.
    package func coverKeys(ofRoot root: ModelEntity, in layout: StoreLayout, on connection: SQLiteConnection) throws {
        let statement = try connection.cachedStatement(
            "UPDATE Z_PRIMARYKEY SET Z_MAX = max(coalesce(Z_MAX, 0), "
                + "(SELECT coalesce(max(Z_PK), 0) FROM \(SQLiteIdentifier.quote(layout.table(of: root))))) WHERE Z_ENT = ?"
        )
        defer { statement.reset() }
        statement.bind(layout.number(of: root), at: 1)
        try statement.execute()
    }
}
