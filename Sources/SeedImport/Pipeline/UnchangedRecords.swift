// Re-runs without objects: in a store that holds data, finds the records of a batch that would
// change nothing — their row exists and already holds every mapped value and link — by
// comparing them with their rows in set-based queries. Only the other records go through
// objects, so re-importing an unchanged catalog reads rows instead of materialising a million
// objects and their to-many relationships. The destinations records name are resolved through
// the run's bounded cache (DestinationCache) first; only the keys it does not know are queried,
// once per lookup and batch.
// Invariant: a record is reported unchanged only when applying it to its object would provably
// change nothing; in any doubt (a duplicate key in the batch, a destination that is missing, a
// row this run wrote, a nested mapping, a value that only matches after rounding, a relationship
// not kept by a column or a join table) it is left to the object path, which decides.
import GraphStore
import RecordReaders

/// Finds the records of a batch that leave the store as it is.
struct UnchangedRecords {
    /// A batch's prepared objects by position, read in place.
    private typealias Objects = UnsafeBufferPointer<PreparedObject?>

    private let model: ObjectModel
    private let layout: StoreLayout
    /// Rows with keys above this one were written by this run (they go to the object path,
    /// which knows whether a record fills a destination created for a reference).
    private let ownRowsAbove: Int64
    private let connection: SQLiteConnection
    /// The run's destinations of small lookups (units, tags), kept from batch to batch.
    private let destinations: DestinationCache
    private static let chunks = 256

    /// A finder reading with `connection` (the import context's, so it sees every saved batch),
    /// resolving references through `destinations` first.
    init(layout: StoreLayout, ownRowsAbove: Int64, connection: SQLiteConnection, destinations: DestinationCache) {
        model = layout.model
        self.layout = layout
        self.ownRowsAbove = ownRowsAbove
        self.connection = connection
        self.destinations = destinations
    }

    /// Whether the comparison can decide for records of `mapping` at all.
    static func applies(to mapping: CompiledMapping, layout: StoreLayout) -> Bool {
        // Keys and matches through relationships are found by objects (ObjectLookup), which decide.
        guard let key = mapping.keyLookup, !key.isRunIdentity, !key.goesThrough, mapping.onConflict != .fail
        else { return false }
        return mapping.relationships.allSatisfy { relationship in
            guard case .reference(let lookup, _, _, _, _) = relationship.source, !lookup.isRunIdentity,
                !lookup.goesThrough, relationship.dataNesting == nil
            else { return false }
            return ImportSQL.linksReadable(relationship.relationship, in: layout)
        }
    }

    /// The positions among `positions` of the records whose prepared objects (`objects`, by
    /// position in their batch) would change nothing, with the concrete entity of each one's row.
    func find(_ positions: [Int], of objects: [PreparedObject?], mapping: CompiledMapping) throws -> [Int: ModelEntity]
    {
        guard Self.applies(to: mapping, layout: layout) else { return [:] }
        // Objects are read in place through the buffer (`objects[position]?.key`): copying a
        // prepared object would reference-count each of its parts.
        return try objects.withUnsafeBufferPointer { try find(positions, of: $0, mapping: mapping) }
    }

    private func find(_ candidates: [Int], of objects: Objects, mapping: CompiledMapping) throws -> [Int: ModelEntity] {
        guard let lookup = mapping.keyLookup else { return [:] }
        var positions: [KeyValue: Int] = [:]
        var repeated: Set<KeyValue> = []
        for position in candidates {
            // A record emptying a to-many (JSON null) goes through objects, which decide.
            guard let key = objects[position]?.key, objects[position]?.nested.isEmpty == true else { continue }
            if positions.updateValue(position, forKey: key) != nil { repeated.insert(key) }
        }
        for key in repeated { positions[key] = nil }
        guard !positions.isEmpty else { return [:] }
        let candidates = try matchingRows(positions, of: objects, mapping: mapping, lookup: lookup)
        guard !candidates.isEmpty, mapping.onConflict != .keep, !mapping.relationships.isEmpty else {
            return entities(of: candidates)
        }
        let members = try currentMembers(of: candidates.map(\.key), mapping: mapping)
        // Destinations the cache knows are compared at once; the records naming others wait for
        // one query per lookup, then compare.
        var unknown: [Int: Set<KeyValue>] = [:]
        var unchanged: [StoredRow] = []
        var waiting: [StoredRow] = []
        var wanted: [Int64] = []
        for candidate in candidates {
            switch linked(candidate, of: objects, found: nil, members: members, unknown: &unknown, wanted: &wanted) {
            case true?: unchanged.append(candidate)
            case false?: break
            case nil: waiting.append(candidate)
            }
        }
        if !waiting.isEmpty {
            let found = try storedDestinations(unknown)
            for candidate in waiting
            where linked(
                candidate, of: objects, found: found, members: members, unknown: &unknown, wanted: &wanted) == true
            {
                unchanged.append(candidate)
            }
        }
        return entities(of: unchanged)
    }

    private func entities(of candidates: [StoredRow]) -> [Int: ModelEntity] {
        var result: [Int: ModelEntity] = [:]
        for candidate in candidates {
            guard let entity = layout.entity(number: candidate.entityID) else { continue }
            result[candidate.position] = entity
        }
        return result
    }

    // MARK: - Rows

    /// The stored row of a record that holds the record's values already.
    private struct StoredRow {
        /// The record's position in the batch.
        let position: Int
        /// The row's key.
        let key: Int64
        /// The store's number of its concrete entity.
        let entityID: Int64
        /// By relationship slot: `.some(key)` for the mapped to-ones read, nil for the others.
        var toOne: [Int64??]
    }

    /// The rows of the records at `positions` (by key) that exist — as the entity or a
    /// sub-entity — and already hold every mapped value of their record (any value at all with
    /// `onConflict: keep`, which leaves existing objects alone).
    private func matchingRows(
        _ positions: [KeyValue: Int], of objects: Objects,
        mapping: CompiledMapping, lookup: LookupID
    ) throws -> [StoredRow] {
        let entity = mapping.entity
        let keyAttributes = lookup.slots.map { entity.attributes[$0] }
        let toOnes = mapping.relationships.map(\.relationship).filter { !$0.isToMany }
        guard
            let query = ImportSQL.rowsByKey(
                of: entity, keySlots: lookup.slots,
                attributeSlots: mapping.attributes.map(\.slot).filter { !entity.attributes[$0].isTransient },
                toOnes: toOnes, in: layout)
        else { return [] }
        let kinds = ImportSQL.entityNumbers(of: entity, in: layout)
        let checksValues = mapping.onConflict != .keep
        let types = entity.attributes.map(\.type)
        let encodings = entity.attributes.map(layout.encoding(of:))
        var rows: [StoredRow] = []
        var seen: Set<Int> = []
        var repeated: Set<Int> = []
        try forEachRow(
            select: query.select, from: query.table, matching: query.keyColumns, values: Array(positions.keys)
        ) { statement in
            guard let key = Self.key(of: keyAttributes, in: statement, layout: layout),
                let position = positions[key]
            else { return }
            // A key that names several rows (no unique constraint behind it) is the object path's to decide.
            guard seen.insert(position).inserted else {
                repeated.insert(position)
                return
            }
            guard kinds.contains(statement.int64(1)), statement.int64(0) <= ownRowsAbove else { return }
            if checksValues {
                let holdsValues = objects[position]?.values.withUnsafeBufferPointer { values in
                    values.indices.allSatisfy { index in
                        let slot = values[index].slot
                        guard let column = query.attributeColumns[slot] else { return false }
                        return statement.holds(
                            values[index].value, at: column, type: types[slot], encoding: encodings[slot])
                    }
                }
                guard holdsValues == true else { return }
            }
            var toOne = [Int64??](repeating: nil, count: entity.relationships.count)
            for (offset, relationship) in toOnes.enumerated() {
                let column = query.firstToOne + Int32(offset)
                toOne[relationship.index] = .some(statement.isNull(column) ? nil : statement.int64(column))
            }
            rows.append(
                StoredRow(position: position, key: statement.int64(0), entityID: statement.int64(1), toOne: toOne))
        }
        return repeated.isEmpty ? rows : rows.filter { !repeated.contains($0.position) }
    }

    /// The key a row of ``ImportSQL/rowsByKey`` holds (its `attributes`, from the third column);
    /// nil when a part is NULL.
    private static func key(of attributes: [ModelAttribute], in statement: SQLiteStatement, layout: StoreLayout)
        -> KeyValue?
    {
        if attributes.count == 1 {
            return statement.attributeValue(
                at: 2, type: attributes[0].type, encoding: layout.encoding(of: attributes[0])
            ).map(KeyValue.single)
        }
        var parts: [AttributeValue] = []
        for (offset, attribute) in attributes.enumerated() {
            guard
                let value = statement.attributeValue(
                    at: Int32(2 + offset), type: attribute.type, encoding: layout.encoding(of: attribute))
            else { return nil }
            parts.append(value)
        }
        return KeyValue(parts)
    }

    // MARK: - Relationships

    /// The stored key of each of the destination keys `unknown` (by lookup number) that has a
    /// row the comparison may use: kept in the run's cache, or for a lookup the cache does not
    /// hold returned, by lookup number and key.
    private func storedDestinations(_ unknown: [Int: Set<KeyValue>]) throws -> [Int: [KeyValue: Int64]] {
        var found: [Int: [KeyValue: Int64]] = [:]
        for (number, keys) in unknown where !keys.isEmpty {
            let map = try storedKeys(keys, lookup: number)
            if !destinations.remember(number, asked: keys, found: map) { found[number] = map }
        }
        return found
    }

    /// The stored key of each of `keys` of the lookup numbered `number` that has a row the
    /// comparison may use.
    private func storedKeys(_ keys: Set<KeyValue>, lookup number: Int) throws -> [KeyValue: Int64] {
        let lookup = destinations.lookup(number)
        let entity = model.entities[lookup.entityIndex]
        let attributes = lookup.slots.map { entity.attributes[$0] }
        let kinds = ImportSQL.entityNumbers(of: entity, in: layout)
        let ownRowsAbove = destinations.ownRowsAbove(number)
        guard
            let query = ImportSQL.rowsByKey(
                of: entity, keySlots: lookup.slots, attributeSlots: [], toOnes: [], in: layout)
        else { return [:] }
        var map: [KeyValue: Int64] = [:]
        try forEachRow(
            select: query.select, from: query.table, matching: query.keyColumns, values: Array(keys)
        ) { statement in
            guard kinds.contains(statement.int64(1)), statement.int64(0) <= ownRowsAbove,
                let key = Self.key(of: attributes, in: statement, layout: layout)
            else { return }
            map[key] = statement.int64(0)
        }
        return map
    }

    /// The members (in order, for ordered relationships) of each mapped to-many relationship of
    /// the rows `owners`, by relationship slot and owner.
    private func currentMembers(of owners: [Int64], mapping: CompiledMapping) throws -> [Int: [Int64: [Int64]]] {
        var result: [Int: [Int64: [Int64]]] = [:]
        let values = owners.map { KeyValue.single(.integer($0)) }
        for relationship in mapping.relationships.map(\.relationship) where relationship.isToMany {
            guard let (table, ownerColumn, memberColumn, orderColumn) = ImportSQL.members(of: relationship, in: layout)
            else { continue }
            var members: [Int64: [Int64]] = [:]
            let order = [ownerColumn, orderColumn ?? memberColumn].map(SQLiteIdentifier.quote).joined(separator: ", ")
            try forEachRow(
                select: "\(SQLiteIdentifier.quote(ownerColumn)), \(SQLiteIdentifier.quote(memberColumn))",
                from: SQLiteIdentifier.quote(table), matching: [ownerColumn], values: values, orderBy: order
            ) { statement in
                members[statement.int64(0), default: []].append(statement.int64(1))
            }
            result[relationship.index] = members
        }
        return result
    }

    /// Whether the references of the record of `row` (its prepared object among `objects`) name
    /// exactly what the row links to already (to-many `add`: among); nil when a destination is
    /// not known yet — in the cache, or in `found` (nil: not looked up yet) — its key then noted
    /// in `unknown`. Once `found` is given, a key in neither has no row. `wanted` is scratch
    /// space, reused from call to call.
    private func linked(
        _ row: StoredRow, of objects: Objects, found: [Int: [KeyValue: Int64]]?, members: [Int: [Int64: [Int64]]],
        unknown: inout [Int: Set<KeyValue>], wanted: inout [Int64]
    ) -> Bool? {
        // Read in place: iterating a copy would reference-count each reference's parts.
        let linkage = objects[row.position]?.references.withUnsafeBufferPointer { references -> Linkage in
            var complete = true
            for index in references.indices {
                let mapping = references[index].mapping
                let number = destinations.lookupNumber(of: mapping)
                wanted.removeAll(keepingCapacity: true)
                for key in references[index].keys {
                    if let cached = destinations.row(number, key) {
                        guard let destination = cached else { return .differs }
                        wanted.append(destination)
                    } else if let found {
                        guard let destination = found[number]?[key] else { return .differs }
                        wanted.append(destination)
                    } else {
                        unknown[number, default: []].insert(key)
                        complete = false
                    }
                }
                if complete && !links(mapping.relationship, members: mapping.members, to: wanted, of: row, members) {
                    return .differs
                }
            }
            return complete ? .linked : .unknown
        }
        switch linkage {
        case .linked?: return true
        case .unknown?: return nil
        case .differs?, nil: return false
        }
    }

    /// What a record's references are to its row's links.
    private enum Linkage {
        case linked, differs, unknown
    }

    /// Whether `relationship` of `row` links to the destinations `wanted` (by their stored keys)
    /// as a reference with the members policy `policy` would leave it.
    private func links(
        _ relationship: ModelRelationship, members policy: MembersPolicy, to wanted: [Int64], of row: StoredRow,
        _ members: [Int: [Int64: [Int64]]]
    ) -> Bool {
        guard relationship.isToMany else {
            guard let stored = row.toOne[relationship.index] else { return false }
            return stored == wanted.first
        }
        guard !Self.repeats(wanted) else { return false }
        let current = members[relationship.index]?[row.key] ?? []
        switch policy {
        case .add:
            return wanted.allSatisfy(current.contains)
        case .replace:
            return relationship.isOrdered ? current == wanted : Set(current) == Set(wanted)
        }
    }

    /// Whether some destination comes twice in `keys` (a few, compared pairwise; many, by a set).
    private static func repeats(_ keys: [Int64]) -> Bool {
        guard keys.count > 16 else {
            return keys.indices.contains { index in keys[..<index].contains(keys[index]) }
        }
        return Set(keys).count != keys.count
    }

    // MARK: - Queries

    /// Runs `SELECT select FROM table WHERE (columns) IN (values…)` in chunks of a fixed size
    /// (``KeyChunks``: the same SQL text each time, so the statement is prepared once), calling
    /// `row` per row.
    private func forEachRow(
        select: String, from table: String, matching columns: [String], values: [KeyValue],
        orderBy: String? = nil, _ row: (SQLiteStatement) throws -> Void
    ) throws {
        guard !values.isEmpty, !columns.isEmpty else { return }
        let chunks = KeyChunks(size: Self.chunks, width: columns.count)
        let target = KeyChunks.target(columns.map(SQLiteIdentifier.quote))
        let sql =
            "SELECT \(select) FROM \(table) WHERE \(target) IN \(chunks.list)"
            + (orderBy.map { " ORDER BY \($0)" } ?? "")
        let statement = try connection.cachedStatement(sql)
        let encoding = layout.values
        for chunk in chunks.split(values) {
            try chunks.query(
                statement, with: chunk,
                bind: { statement, key, first in
                    for offset in 0..<key.partCount {
                        statement.bind(key.part(offset), at: first + Int32(offset), encoding: encoding)
                    }
                }, row: row)
        }
    }
}
