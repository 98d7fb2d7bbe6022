// The references of a run that could not be resolved when their records were written — forward
// references, references to keys the bounded key index does not hold, `missing: create`
// destinations it could not create yet — kept in a staging table in the store
// (`seedkit_import_refs`), one row per key, written in the transaction of the batch that left
// them. After the load they are resolved: those of new rows set-based (StagedResolution), those
// of objects through the object path, a chunk at a time. Destinations the object path created
// for references are listed in `seedkit_import_created` until a record fills them. Where each
// key of a lookup that a mapping with `onConflict: fail` keys by was first written is noted in
// `seedkit_import_first`, so that the error of a record repeating it names both records.
// Invariants: memory holds one batch's or one chunk's references at a time, never the run's;
// the tables exist only while a run is active (a resumed run finds them, a new run replaces a
// killed run's, the run's end drops them in its last transaction).
import GraphStore
import RecordReaders

/// A reference waiting for the deferred pass, as the commit step stages it.
struct StagedReference {
    /// The relationship mapping.
    let mapping: CompiledRelationship
    /// The owner row (the owner's entity store ID and key).
    let owner: RowReference
    /// The keys to resolve, with their positions in the reference's list.
    let keys: [(ordinal: Int, key: KeyValue)]
    /// Whether it is resolved through objects (its owner went the object path) rather than set-based.
    let throughObjects: Bool
    /// Where its field (or its record) is, for errors.
    let position: SourcePosition
}

/// A position as staged: the file's number among the run's sources, and the numbers.
struct SourcePositionParts {
    let file: Int
    let line: Int
    let column: Int
    let byteOffset: Int
    let record: Int
}

/// A staged reference read back for the object path, with all its keys.
struct WaitingReference {
    /// The owner.
    let owner: ObjectID
    /// The reference.
    let reference: PreparedReference
}

/// The staging tables of one run.
final class StagedReferences {
    static let table = "seedkit_import_refs"
    static let createdTable = "seedkit_import_created"
    static let firstWritersTable = "seedkit_import_first"
    static let rowPositionsTable = "seedkit_import_rows"

    private let model: ObjectModel
    /// How the store keeps values: staged keys are compared with its columns.
    private let encoding: ValueEncoding
    /// The run's mappings: relationship mappings and lookups are named by their numbers.
    let mappings: PlanMappings
    /// The source files, by source number: positions name their file by this number.
    private let files: [String]
    private let fileIndex: [String: Int]
    /// Key parts per row (the widest lookup of the plan).
    let keyWidth: Int
    /// The unique constraints checked for repeats after the load in a new store (ConstraintDuplicates).
    let checkedConstraints: [CheckedConstraint]
    /// Whether the new rows of each entity note their record's place, by entity index (those
    /// with a checked constraint, for its errors).
    let notesRowPositions: [Bool]
    private var nextReference: Int64 = 1

    /// The staging of a run of `mappings` reading `files` (by source number) into a store laid
    /// out by `layout`.
    init(layout: StoreLayout, mappings: PlanMappings, files: [String]) {
        model = layout.model
        encoding = layout.values
        self.mappings = mappings
        self.files = files
        fileIndex = Dictionary(files.enumerated().map { ($1, $0) }) { first, _ in first }
        keyWidth = max(1, mappings.lookups.map(\.partCount).max() ?? 1)
        let checked = CheckedConstraint.checked(in: mappings, model: model)
        checkedConstraints = checked
        notesRowPositions = model.entities.map { entity in checked.contains { entity.isKind(of: $0.entity) } }
    }

    /// The relationship mapping numbered `number`.
    func relationship(_ number: Int) -> CompiledRelationship? {
        mappings.relationships.indices.contains(number) ? mappings.relationships[number] : nil
    }

    /// The number of `lookup` in the tables (-1 for a lookup the plan does not have).
    func number(of lookup: LookupID) -> Int {
        mappings.number(of: lookup) ?? -1
    }

    /// The key columns `k0, k1, …`.
    var keyColumns: [String] { (0..<keyWidth).map { "k\($0)" } }

    // MARK: - Tables

    /// Creates the tables for a new run (replacing a killed run's) or, with `resuming`, keeps
    /// the ones a killed run of the same plan left.
    func create(on connection: SQLiteConnection, resuming: Bool) throws {
        if !resuming { try Self.drop(on: connection) }
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS \(Self.table)(seq INTEGER PRIMARY KEY, ref INTEGER NOT NULL,
              mapping INTEGER NOT NULL, objects INTEGER NOT NULL, entity INTEGER NOT NULL, owner INTEGER NOT NULL,
              ordinal INTEGER NOT NULL, \(keyColumns.joined(separator: ", ")), file INTEGER NOT NULL,
              line INTEGER NOT NULL, col INTEGER NOT NULL, byte INTEGER NOT NULL, record INTEGER NOT NULL);
            CREATE TABLE IF NOT EXISTS \(Self.createdTable)(lookup INTEGER NOT NULL, \(keyColumns.joined(separator: ", ")),
              PRIMARY KEY(lookup, \(keyColumns.joined(separator: ", "))));
            CREATE TABLE IF NOT EXISTS \(Self.firstWritersTable)(lookup INTEGER NOT NULL,
              \(keyColumns.joined(separator: ", ")), file INTEGER NOT NULL, line INTEGER NOT NULL, col INTEGER NOT NULL,
              byte INTEGER NOT NULL, record INTEGER NOT NULL);
            CREATE INDEX IF NOT EXISTS \(Self.firstWritersTable)_key
              ON \(Self.firstWritersTable)(lookup, \(keyColumns.joined(separator: ", ")));
            """)
        // Only when needed: a seed's bytes depend on every table its build made.
        if !checkedConstraints.isEmpty {
            try connection.execute(
                """
                CREATE TABLE IF NOT EXISTS \(Self.rowPositionsTable)(entity INTEGER NOT NULL, owner INTEGER NOT NULL,
                  file INTEGER NOT NULL, line INTEGER NOT NULL, col INTEGER NOT NULL, byte INTEGER NOT NULL,
                  record INTEGER NOT NULL, PRIMARY KEY(entity, owner))
                """)
        }
        let last = try connection.prepare("SELECT coalesce(max(ref), 0) + 1 FROM \(Self.table)")
        _ = try last.step()
        nextReference = last.int64(0)
    }

    /// Drops the tables (the run's end, or a run undone).
    static func drop(on connection: SQLiteConnection) throws {
        try connection.execute(
            "DROP TABLE IF EXISTS \(Self.table); DROP TABLE IF EXISTS \(Self.createdTable); "
                + "DROP TABLE IF EXISTS \(Self.firstWritersTable); DROP TABLE IF EXISTS \(Self.rowPositionsTable)")
    }

    /// Whether references are staged.
    func hasReferences(on connection: SQLiteConnection) throws -> Bool {
        let query = try connection.prepare("SELECT EXISTS (SELECT 1 FROM \(Self.table))")
        _ = try query.step()
        return query.int64(0) != 0
    }

    // MARK: - Writing

    /// Stages the keys new rows of `batch`, read from the source numbered `source`, could not
    /// resolve (inside the caller's transaction).
    func append(_ keys: [StagedKey], of batch: PreparedBatch, source: Int, on connection: SQLiteConnection) throws {
        guard !keys.isEmpty else { return }
        let insert = try insertStatement(on: connection)
        try batch.text.withUnsafeBytes { text in
            let binder = FlatBinder(text: text, boxed: batch.boxed, constants: [], encoding: encoding)
            var previous: (owner: RowReference, relationship: Int32)?
            var ref: Int64 = 0
            for item in keys {
                if previous?.owner != item.owner || previous?.relationship != item.relationship {
                    ref = nextReference
                    nextReference += 1
                    previous = (item.owner, item.relationship)
                }
                let parts = batch.parts(of: batch.keys[Int(item.key)])
                try insertRow(
                    insert, ref: ref, mapping: Int(item.relationship), throughObjects: false, owner: item.owner,
                    ordinal: Int(item.ordinal), file: source, place: item.place
                ) { first in
                    for offset in 0..<keyWidth {
                        let part = offset < parts.count ? parts[parts.startIndex + offset] : .null
                        binder.bind(part, at: first + Int32(offset), to: insert)
                    }
                }
            }
        }
    }

    /// Stages the references objects could not resolve, all their keys (inside the caller's
    /// transaction).
    func append(_ references: [StagedReference], on connection: SQLiteConnection) throws {
        guard !references.isEmpty else { return }
        let insert = try insertStatement(on: connection)
        for reference in references {
            let ref = nextReference
            nextReference += 1
            let position = reference.position
            let place = SourcePlace(
                line: position.line, column: position.column, byteOffset: position.byteOffset,
                recordNumber: position.recordNumber)
            for (ordinal, key) in reference.keys {
                try insertRow(
                    insert, ref: ref, mapping: reference.mapping.number, throughObjects: reference.throughObjects,
                    owner: reference.owner, ordinal: ordinal, file: fileIndex[position.file] ?? -1, place: place
                ) { first in bind(key, from: first, to: insert) }
            }
        }
    }

    private func insertStatement(on connection: SQLiteConnection) throws -> SQLiteStatement {
        let columns =
            ["ref", "mapping", "objects", "entity", "owner", "ordinal"] + keyColumns
            + ["file", "line", "col", "byte", "record"]
        return try connection.cachedStatement(
            "INSERT INTO \(Self.table)(\(columns.joined(separator: ", "))) VALUES ("
                + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")")
    }

    /// Inserts one staged key; `bindKey` binds its parts from the given parameter on.
    private func insertRow(
        _ insert: SQLiteStatement, ref: Int64, mapping: Int, throughObjects: Bool, owner: RowReference, ordinal: Int,
        file: Int, place: SourcePlace, bindKey: (Int32) -> Void
    ) throws {
        insert.bind(ref, at: 1)
        insert.bind(Int64(mapping), at: 2)
        insert.bind(Int64(throughObjects ? 1 : 0), at: 3)
        insert.bind(owner.entityID, at: 4)
        insert.bind(owner.key, at: 5)
        insert.bind(Int64(ordinal), at: 6)
        bindKey(7)
        bind(file: file, place: place, from: Int32(7 + keyWidth), to: insert)
        try insert.execute()
    }

    /// Binds a position (the file's number and `place`) to the five parameters from `first`.
    private func bind(file: Int, place: SourcePlace, from first: Int32, to statement: SQLiteStatement) {
        statement.bind(Int64(file), at: first)
        statement.bind(Int64(place.line), at: first + 1)
        statement.bind(Int64(place.column), at: first + 2)
        statement.bind(Int64(place.byteOffset), at: first + 3)
        statement.bind(Int64(place.recordNumber), at: first + 4)
    }

    /// Notes destinations the object path created for references (inside the caller's transaction).
    func recordCreated(_ keys: Set<KeyOfLookup>, on connection: SQLiteConnection) throws {
        guard !keys.isEmpty else { return }
        let insert = try connection.cachedStatement(
            "INSERT OR IGNORE INTO \(Self.createdTable)(lookup, \(keyColumns.joined(separator: ", "))) VALUES (?, "
                + Array(repeating: "?", count: keyWidth).joined(separator: ", ") + ")")
        for item in keys {
            insert.bind(Int64(number(of: item.lookup)), at: 1)
            bind(item.key, from: 2, to: insert)
            try insert.execute()
        }
    }

    /// Forgets destinations a record has filled (inside the caller's transaction).
    func removeCreated(_ keys: Set<KeyOfLookup>, on connection: SQLiteConnection) throws {
        guard !keys.isEmpty else { return }
        let delete = try connection.cachedStatement(
            "DELETE FROM \(Self.createdTable) WHERE lookup = ? AND "
                + keyColumns.map { "\($0) IS ?" }.joined(separator: " AND "))
        for item in keys {
            delete.bind(Int64(number(of: item.lookup)), at: 1)
            bind(item.key, from: 2, to: delete)
            try delete.execute()
        }
    }

    /// Whether the object path created the destination with `key` for a reference and no record filled it yet.
    func isCreated(_ key: KeyOfLookup, on connection: SQLiteConnection) throws -> Bool {
        let query = try connection.cachedStatement(
            "SELECT 1 FROM \(Self.createdTable) WHERE lookup = ? AND "
                + keyColumns.map { "\($0) IS ?" }.joined(separator: " AND "))
        defer { query.reset() }
        query.bind(Int64(number(of: key.lookup)), at: 1)
        bind(key.key, from: 2, to: query)
        return try query.step()
    }

    // MARK: - First writers

    /// Notes where the new rows of `batch` (read from the source numbered `source`) first wrote
    /// keys whose repetition fails (inside the caller's transaction).
    func noteFirstWriters(
        _ keys: [FirstWriterKey], of batch: PreparedBatch, source: Int, on connection: SQLiteConnection
    ) throws {
        guard !keys.isEmpty else { return }
        let insert = try firstWriterInsert(on: connection)
        try batch.text.withUnsafeBytes { text in
            let binder = FlatBinder(text: text, boxed: batch.boxed, constants: [], encoding: encoding)
            for item in keys {
                let parts = batch.parts(of: batch.keys[Int(item.key)])
                insert.bind(Int64(item.lookup), at: 1)
                for offset in 0..<keyWidth {
                    binder.bind(
                        offset < parts.count ? parts[parts.startIndex + offset] : .null, at: 2 + Int32(offset),
                        to: insert)
                }
                bind(file: source, place: item.place, from: Int32(2 + keyWidth), to: insert)
                try insert.execute()
            }
        }
    }

    /// Notes where objects first wrote keys whose repetition fails (inside the caller's transaction).
    func noteFirstWriters(_ items: [(key: KeyOfLookup, position: SourcePosition)], on connection: SQLiteConnection)
        throws
    {
        guard !items.isEmpty else { return }
        let insert = try firstWriterInsert(on: connection)
        for (key, position) in items {
            insert.bind(Int64(number(of: key.lookup)), at: 1)
            bind(key.key, from: 2, to: insert)
            bind(
                file: fileIndex[position.file] ?? -1,
                place: SourcePlace(
                    line: position.line, column: position.column, byteOffset: position.byteOffset,
                    recordNumber: position.recordNumber), from: Int32(2 + keyWidth), to: insert)
            try insert.execute()
        }
    }

    /// Where the run first wrote `key`; nil when it did not (the row was in the store before).
    func firstWriter(of key: KeyOfLookup, on connection: SQLiteConnection) throws -> SourcePosition? {
        let query = try connection.cachedStatement(
            "SELECT file, line, col, byte, record FROM \(Self.firstWritersTable) WHERE lookup = ? AND "
                + keyColumns.map { "\($0) IS ?" }.joined(separator: " AND ") + " ORDER BY rowid LIMIT 1")
        defer { query.reset() }
        query.bind(Int64(number(of: key.lookup)), at: 1)
        bind(key.key, from: 2, to: query)
        guard try query.step() else { return nil }
        return position(
            SourcePositionParts(
                file: query.int(0), line: query.int(1), column: query.int(2), byteOffset: query.int(3),
                record: query.int(4)))
    }

    private func firstWriterInsert(on connection: SQLiteConnection) throws -> SQLiteStatement {
        try connection.cachedStatement(
            "INSERT INTO \(Self.firstWritersTable)(lookup, \(keyColumns.joined(separator: ", ")), file, line, col, "
                + "byte, record) VALUES (" + Array(repeating: "?", count: keyWidth + 6).joined(separator: ", ") + ")")
    }

    /// Binds `key`'s parts to the `keyWidth` parameters from `first` (NULL past its last part).
    private func bind(_ key: KeyValue, from first: Int32, to statement: SQLiteStatement) {
        let parts = key.parts
        for offset in 0..<keyWidth {
            statement.bind(offset < parts.count ? parts[offset] : nil, at: first + Int32(offset), encoding: encoding)
        }
    }

    // MARK: - Row positions

    /// Notes where the records of new rows are (read from the source numbered `source`; inside
    /// the caller's transaction); a row keeps the place of the record that wrote it first.
    func noteRowPositions(
        _ rows: [(row: RowReference, place: SourcePlace)], source: Int, on connection: SQLiteConnection
    )
        throws
    {
        guard !rows.isEmpty else { return }
        let insert = try connection.cachedStatement(
            "INSERT OR IGNORE INTO \(Self.rowPositionsTable)(entity, owner, file, line, col, byte, record) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?)")
        for item in rows {
            insert.bind(item.row.entityID, at: 1)
            insert.bind(item.row.key, at: 2)
            bind(file: source, place: item.place, from: 3, to: insert)
            try insert.execute()
        }
    }

    /// Notes where the records of objects the run inserted are (inside the caller's transaction).
    func noteRowPositions(_ rows: [(row: RowReference, position: SourcePosition)], on connection: SQLiteConnection)
        throws
    {
        for (file, items) in Dictionary(grouping: rows, by: { fileIndex[$0.position.file] ?? -1 }) {
            try noteRowPositions(
                items.map { item in
                    let position = item.position
                    return (
                        item.row,
                        SourcePlace(
                            line: position.line, column: position.column, byteOffset: position.byteOffset,
                            recordNumber: position.recordNumber)
                    )
                }, source: file, on: connection)
        }
    }

    // MARK: - Reading back for the object path

    /// The next staged references of objects after the reference `after`, up to `limit` of
    /// them, each with all its keys in order; empty when none are left. With `only`, just
    /// those of the relationship mappings it names.
    func objectReferences(
        after: Int64, limit: Int, only: Set<Int>? = nil, on connection: SQLiteConnection, store: PersistentStore
    ) throws -> [(ref: Int64, waiting: WaitingReference)] {
        let columns = ["ref", "mapping", "entity", "owner"] + keyColumns + ["file", "line", "col", "byte", "record"]
        let selected = "objects = 1" + Self.mappingFilter(only)
        let query = try connection.cachedStatement(
            "SELECT \(columns.joined(separator: ", ")) FROM \(Self.table) WHERE \(selected) AND ref > ?1 "
                + "AND ref IN (SELECT DISTINCT ref FROM \(Self.table) WHERE \(selected) AND ref > ?1 ORDER BY ref LIMIT ?2) "
                + "ORDER BY ref, ordinal")
        defer { query.reset() }
        query.bind(after, at: 1)
        query.bind(Int64(limit), at: 2)
        var result: [(ref: Int64, waiting: WaitingReference)] = []
        var current:
            (ref: Int64, mapping: CompiledRelationship, owner: ObjectID, keys: [KeyValue], position: SourcePosition)?
        func flush() {
            guard let current else { return }
            let reference = PreparedReference(
                mapping: current.mapping, keys: current.keys, origin: .known(current.position))
            result.append((current.ref, WaitingReference(owner: current.owner, reference: reference)))
        }
        while try query.step() {
            let ref = query.int64(0)
            guard let mapping = relationship(query.int(1)) else { continue }
            // A run identity is text, as staged.
            let types =
                mapping.lookup.isRunIdentity
                ? [AttributeType.string] : mapping.lookup.partAttributes(in: model).map(\.type)
            var parts: [AttributeValue] = []
            for (offset, type) in types.enumerated() {
                parts.append(query.attributeValue(at: Int32(4 + offset), type: type, encoding: encoding) ?? .string(""))
            }
            if current?.ref != ref {
                flush()
                let base = Int32(4 + keyWidth)
                let position = self.position(
                    SourcePositionParts(
                        file: query.int(base), line: query.int(base + 1), column: query.int(base + 2),
                        byteOffset: query.int(base + 3), record: query.int(base + 4)))
                current = (
                    ref, mapping, ObjectID(storeUUID: store.identifier, entityID: query.int64(2), key: query.int64(3)),
                    [], position
                )
            }
            current?.keys.append(KeyValue(parts))
        }
        flush()
        return result
    }

    /// ` AND mapping IN (…)` for the relationship mappings `only` names (nothing for nil: all).
    private static func mappingFilter(_ only: Set<Int>?) -> String {
        only.map { " AND mapping IN (\(StoreLayout.list($0.sorted().map(Int64.init))))" } ?? ""
    }

    /// The position `parts` stand for.
    func position(_ parts: SourcePositionParts) -> SourcePosition {
        SourcePosition(
            file: files.indices.contains(parts.file) ? files[parts.file] : "", line: parts.line, column: parts.column,
            byteOffset: parts.byteOffset, recordNumber: parts.record)
    }

    /// Deletes the keys `owner` staged for `relationship` (a later record of its key, applied
    /// through objects, set the relationship anew; inside the caller's transaction).
    func removeOverridden(_ relationship: ModelRelationship, of owner: RowReference, on connection: SQLiteConnection)
        throws
    {
        let numbers = mappings.relationships.filter { $0.relationship === relationship }.map(\.number)
        guard !numbers.isEmpty else { return }
        let delete = try connection.prepare(
            "DELETE FROM \(Self.table) WHERE entity = ? AND owner = ? AND mapping IN ("
                + numbers.map(String.init).joined(separator: ", ") + ")")
        delete.bind(owner.entityID, at: 1)
        delete.bind(owner.key, at: 2)
        try delete.execute()
    }

    /// Deletes every key `owner` staged (its record is left out; inside the caller's transaction).
    func removeReferences(of owner: RowReference, on connection: SQLiteConnection) throws {
        let delete = try connection.cachedStatement("DELETE FROM \(Self.table) WHERE entity = ? AND owner = ?")
        delete.bind(owner.entityID, at: 1)
        delete.bind(owner.key, at: 2)
        try delete.execute()
    }

    /// Deletes the staged references of objects up to the reference `through` (they are
    /// resolved), with `only` just those of the relationship mappings it names.
    func removeObjectReferences(through: Int64, only: Set<Int>? = nil, on connection: SQLiteConnection) throws {
        let delete = try connection.cachedStatement(
            "DELETE FROM \(Self.table) WHERE objects = 1\(Self.mappingFilter(only)) AND ref <= ?")
        delete.bind(through, at: 1)
        try delete.execute()
    }
}
