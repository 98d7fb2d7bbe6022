// Records a run sets aside while it loads a store it created: those whose key may repeat a key
// the run already wrote, though the key index, being full, cannot say which row (KeyIndex
// `seen`). They are kept whole (archived) in a staging table of the store
// (`seedkit_import_aside`), written in the transaction of the batch they came in, and applied
// through objects after the load, once the store's indexes find their keys: a repeated key then
// updates, keeps or fails as its `onConflict` says, and a key that was new after all inserts.
// Invariants: memory holds one batch's records at a time; the records are applied in their
// order, grouped by the batch they came in (so repeated keys count as they would have); each
// group leaves the table in the transaction that applies it.
import GraphStore
import RecordReaders

/// A record set aside, with what applying it later needs.
struct SetAsideRecord {
    /// The source it was read from.
    let source: Int
    /// The batch it came in.
    let batch: Int
    /// Whether a record of the same batch wrote its key before it (then the match is not counted
    /// as an update: a repeated key within a batch counts once).
    let repeatsBatchKey: Bool
    /// The record.
    let record: SourceRecord
}

/// The set-aside records of one run.
struct SetAsideRecords {
    static let table = "seedkit_import_aside"

    /// Creates the table for a new run (replacing a killed run's) or, with `resuming`, keeps it.
    static func create(on connection: SQLiteConnection, resuming: Bool) throws {
        if !resuming { try drop(on: connection) }
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS \(table)(seq INTEGER PRIMARY KEY, source INTEGER NOT NULL,
              batch INTEGER NOT NULL, repeats INTEGER NOT NULL, record BLOB NOT NULL)
            """)
    }

    /// Drops the table.
    static func drop(on connection: SQLiteConnection) throws {
        try connection.execute("DROP TABLE IF EXISTS \(table)")
    }

    /// Keeps `records` (inside the caller's transaction).
    static func append(_ records: [SetAsideRecord], on connection: SQLiteConnection) throws {
        guard !records.isEmpty else { return }
        let insert = try connection.cachedStatement(
            "INSERT INTO \(table)(source, batch, repeats, record) VALUES (?, ?, ?, ?)")
        for item in records {
            insert.bind(Int64(item.source), at: 1)
            insert.bind(Int64(item.batch), at: 2)
            insert.bind(Int64(item.repeatsBatchKey ? 1 : 0), at: 3)
            insert.bind(blob: item.record.archived(), at: 4)
            try insert.execute()
        }
    }

    /// The records of the first batch still set aside, in order, with the last one's number;
    /// nil when none are left.
    ///
    /// - Throws: ``RecordError`` when a kept record cannot be read back (the store was changed).
    static func nextBatch(on connection: SQLiteConnection) throws -> (records: [SetAsideRecord], through: Int64)? {
        let query = try connection.cachedStatement(
            """
            SELECT seq, source, batch, repeats, record FROM \(table)
            WHERE batch = (SELECT batch FROM \(table) ORDER BY seq LIMIT 1) ORDER BY seq
            """)
        defer { query.reset() }
        var records: [SetAsideRecord] = []
        var through: Int64 = 0
        while try query.step() {
            guard let record = SourceRecord(archive: query.blob(4)) else {
                throw RecordError(
                    position: SourcePosition(file: table, line: 0, column: 0, byteOffset: 0, recordNumber: 0),
                    message: "a record set aside by this run cannot be read back (seq \(query.int64(0)))")
            }
            through = query.int64(0)
            records.append(
                SetAsideRecord(
                    source: query.int(1), batch: query.int(2), repeatsBatchKey: query.int64(3) != 0, record: record))
        }
        return records.isEmpty ? nil : (records, through)
    }

    /// Forgets the records up to `through` (they are applied; inside the caller's transaction).
    static func remove(through: Int64, on connection: SQLiteConnection) throws {
        let delete = try connection.cachedStatement("DELETE FROM \(table) WHERE seq <= ?")
        delete.bind(through, at: 1)
        try delete.execute()
    }
}
