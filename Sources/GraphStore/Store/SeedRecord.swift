// A store's record of the objects that came from a seed (docs/StoreFormat.md, "Seed record"):
// beside each entity table `T`, a table of the same columns (`seedkit_seed_T` in SeedKit's
// layout) holding, for each object a seed brought in, the values the seed last gave it — its
// base row — with its row version then and its key in that seed. A seed upgrade compares the
// object's row with its base row, column by column, to take the seed's new values where the user
// left the old ones, keep what the user changed, leave out what the user deleted, and match
// objects without a unique key by their content (docs/FirstLaunch.md, "Seed upgrades").
// Invariants: a record table has the key, entity and version columns of its entity table, the
// attribute, to-one and companion columns it had when last written (declared alike, so values
// compare as they do in the entity table), and the seed key; base rows are keyed by the object's
// key in this store. Nothing in the store's own tables depends on the record.

/// The seed record of one store layout.
///
/// ```swift
/// let record = SeedRecord(layout: store.layout)
/// try record.recordEveryObject(on: connection)   // a seed build, or a copied seed without one
/// ```
package struct SeedRecord: Sendable {
    /// The layout of the store holding the record.
    package let layout: StoreLayout

    /// The record of a store laid out by `layout`.
    package init(layout: StoreLayout) {
        self.layout = layout
    }

    /// The column holding the object's key in the seed it last came from (0 when that seed no
    /// longer had it), a bare SQL identifier no entity column can have.
    package var seedKeyColumn: String { layout.reservedName("seed_key") }

    /// `main."seedkit_seed_T"`: the record table of `root`'s table.
    package func table(ofRoot root: ModelEntity) -> String {
        "main." + SQLiteIdentifier.quote(layout.seedRecordTable(ofRoot: root))
    }

    /// The columns of `root`'s table a base row holds besides the key, entity and version
    /// columns: those of attributes, to-ones and their companions, by name.
    package func valueColumns(ofRoot root: ModelEntity) -> [String] {
        layout.dataColumns(ofRoot: root).filter { $0.content != .position }.map(\.name)
    }

    /// The columns the record table of `root` has on `connection` (empty when it has none).
    package func existingColumns(ofRoot root: ModelEntity, on connection: SQLiteConnection) throws -> Set<String> {
        Set(try columns(of: layout.seedRecordTable(ofRoot: root), on: connection).map(\.name))
    }

    /// Whether the store on `connection` holds a record of any table.
    package func exists(on connection: SQLiteConnection) throws -> Bool {
        try layout.roots.contains { try !existingColumns(ofRoot: $0, on: connection).isEmpty }
    }

    /// Creates the record table of `root` when it is missing and adds the value columns it lacks
    /// (a record written before the entity had them), declared as in the entity table; inside
    /// the caller's transaction.
    package func prepare(ofRoot root: ModelEntity, on connection: SQLiteConnection) throws {
        let declared = Dictionary(
            try columns(of: layout.table(of: root), on: connection).map { ($0.name, $0.type) },
            uniquingKeysWith: { first, _ in first })
        let quote = SQLiteIdentifier.quote
        let definition = { (column: String) in quote(column) + (declared[column].map { " " + $0 } ?? "") }
        let existing = try existingColumns(ofRoot: root, on: connection)
        let values = valueColumns(ofRoot: root)
        guard !existing.isEmpty else {
            let columns =
                ["\(quote(layout.keyColumn)) INTEGER PRIMARY KEY"]
                + [layout.entityColumn, layout.versionColumn].map { definition($0) + " NOT NULL" }
                + values.map(definition) + ["\(quote(seedKeyColumn)) INTEGER NOT NULL"]
            try connection.execute("CREATE TABLE \(table(ofRoot: root))(\(columns.joined(separator: ", ")))")
            return
        }
        for column in values where !existing.contains(column) {
            try connection.execute("ALTER TABLE \(table(ofRoot: root)) ADD COLUMN \(definition(column))")
        }
    }

    /// Records every object of the store as a seed object of itself — its base row is its row,
    /// its seed key its key — replacing any record: what a seed build writes into the seed, and
    /// a first launch into a store it copied from a seed without a record or seeded through a
    /// plan. One transaction on `connection`.
    package func recordEveryObject(on connection: SQLiteConnection) throws {
        try connection.transaction(.immediate) {
            for root in layout.roots {
                try connection.execute("DROP TABLE IF EXISTS \(table(ofRoot: root))")
                try prepare(ofRoot: root, on: connection)
                let columns =
                    ([layout.keyColumn, layout.entityColumn, layout.versionColumn] + valueColumns(ofRoot: root))
                    .map(SQLiteIdentifier.quote)
                try connection.execute(
                    """
                    INSERT INTO \(table(ofRoot: root))(\(columns.joined(separator: ", ")), \(SQLiteIdentifier.quote(seedKeyColumn)))
                    SELECT \(columns.joined(separator: ", ")), \(SQLiteIdentifier.quote(layout.keyColumn))
                    FROM main.\(SQLiteIdentifier.quote(layout.table(of: root)))
                    """)
            }
        }
    }

    /// The columns of `table` in the main database, with their declared types (none when the
    /// table does not exist).
    private func columns(of table: String, on connection: SQLiteConnection) throws -> [(name: String, type: String)] {
        let statement = try connection.prepare("SELECT name, type FROM pragma_table_info(?1, 'main')")
        statement.bind(text: table, at: 1)
        var columns: [(String, String)] = []
        while try statement.step() { columns.append((statement.string(0), statement.string(1))) }
        return columns
    }
}

extension PersistentStore {
    /// Whether the store holds a seed record (SeedRecord).
    package func hasSeedRecord() throws -> Bool {
        let connection = try makeConnection()
        return try Self.sqlite(location.description) { try SeedRecord(layout: layout).exists(on: connection) }
    }

    /// Records every object of the store as a seed object of itself (SeedRecord), in one
    /// transaction: what a seed build writes into its seed, and a first launch into a store it
    /// copied from a seed without a record or seeded through a plan.
    package func recordSeedObjects() throws {
        guard !isReadOnly else { throw StoreError(.readOnly, path: location.description) }
        let connection = try makeConnection()
        try Self.sqlite(location.description) { try SeedRecord(layout: layout).recordEveryObject(on: connection) }
    }
}
