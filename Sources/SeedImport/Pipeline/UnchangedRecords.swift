// Re-runs without objects: in a store that holds data, finds the records of a batch that would
// change nothing — their row exists and already holds every mapped value and link — by
// comparing them with their rows in set-based queries. Only the other records go through
// objects, so re-importing an unchanged catalog reads rows instead of materialising a million
// objects and their to-many relationships.
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
    private static let chunks = 256

    /// A finder reading with `connection` (the import context's, so it sees every saved batch).
    init(layout: StoreLayout, ownRowsAbove: Int64, connection: SQLiteConnection) {
        model = layout.model
        self.layout = layout
        self.ownRowsAbove = ownRowsAbove
        self.connection = connection
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
        let destinations = try destinationKeys(candidates.map(\.position), of: objects)
        let members = try currentMembers(of: candidates.map(\.key), mapping: mapping)
        return entities(
            of: candidates.filter { candidate in
                objects[candidate.position]?.references.allSatisfy { reference in
                    links(of: reference, match: candidate, destinations: destinations, members: members)
                } == true
            })
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
        var rows: [StoredRow] = []
        var seen: Set<Int> = []
        var repeated: Set<Int> = []
        try forEachRow(
            select: query.select, from: query.table, matching: query.keyColumns, values: positions.keys.map(\.parts)
        ) { statement in
            var parts: [AttributeValue] = []
            for (offset, attribute) in keyAttributes.enumerated() {
                guard
                    let value = statement.attributeValue(
                        at: Int32(2 + offset), type: attribute.type, encoding: layout.encoding(of: attribute))
                else { return }
                parts.append(value)
            }
            guard let position = positions[KeyValue(parts)] else { return }
            // A key that names several rows (no unique constraint behind it) is the object path's to decide.
            guard seen.insert(position).inserted else {
                repeated.insert(position)
                return
            }
            guard kinds.contains(statement.int64(1)), statement.int64(0) <= ownRowsAbove else { return }
            if checksValues {
                let holdsValues =
                    objects[position]?.values.allSatisfy { slot, value in
                        query.attributeColumns[slot].map {
                            statement.holds(
                                value, at: $0, type: entity.attributes[slot].type,
                                encoding: layout.encoding(of: entity.attributes[slot]))
                        } ?? false
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

    // MARK: - Relationships

    /// The stored key of every destination the records at `positions` refer to, by lookup and key.
    private func destinationKeys(_ positions: [Int], of objects: Objects)
        throws
        -> [LookupID: [KeyValue: Int64]]
    {
        var wanted: [LookupID: Set<KeyValue>] = [:]
        for position in positions {
            for reference in objects[position]?.references ?? [] {
                wanted[reference.lookup, default: []].formUnion(reference.keys)
            }
        }
        var found: [LookupID: [KeyValue: Int64]] = [:]
        for (lookup, keys) in wanted where !keys.isEmpty {
            let entity = model.entities[lookup.entityIndex]
            let attributes = lookup.slots.map { entity.attributes[$0] }
            let kinds = ImportSQL.entityNumbers(of: entity, in: layout)
            guard
                let query = ImportSQL.rowsByKey(
                    of: entity, keySlots: lookup.slots, attributeSlots: [], toOnes: [], in: layout)
            else { continue }
            var map: [KeyValue: Int64] = [:]
            try forEachRow(
                select: query.select, from: query.table, matching: query.keyColumns, values: keys.map(\.parts)
            ) { statement in
                guard kinds.contains(statement.int64(1)), statement.int64(0) <= ownRowsAbove else { return }
                var parts: [AttributeValue] = []
                for (offset, attribute) in attributes.enumerated() {
                    guard
                        let value = statement.attributeValue(
                            at: Int32(2 + offset), type: attribute.type, encoding: layout.encoding(of: attribute))
                    else {
                        return
                    }
                    parts.append(value)
                }
                map[KeyValue(parts)] = statement.int64(0)
            }
            found[lookup] = map
        }
        return found
    }

    /// The members (in order, for ordered relationships) of each mapped to-many relationship of
    /// the rows `owners`, by relationship slot and owner.
    private func currentMembers(of owners: [Int64], mapping: CompiledMapping) throws -> [Int: [Int64: [Int64]]] {
        var result: [Int: [Int64: [Int64]]] = [:]
        let values = owners.map { [AttributeValue.integer($0)] }
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

    /// Whether `reference` names exactly what `row` links to already (to-many `add`: among).
    private func links(
        of reference: PreparedReference, match row: StoredRow, destinations: [LookupID: [KeyValue: Int64]],
        members: [Int: [Int64: [Int64]]]
    ) -> Bool {
        var wanted: [Int64] = []
        for key in reference.keys {
            guard let destination = destinations[reference.lookup]?[key] else { return false }
            wanted.append(destination)
        }
        let relationship = reference.mapping.relationship
        guard relationship.isToMany else {
            guard let stored = row.toOne[relationship.index] else { return false }
            return stored == wanted.first
        }
        guard Set(wanted).count == wanted.count else { return false }
        let current = members[relationship.index]?[row.key] ?? []
        switch reference.mapping.members {
        case .add:
            return wanted.allSatisfy(current.contains)
        case .replace:
            return relationship.isOrdered ? current == wanted : Set(current) == Set(wanted)
        }
    }

    // MARK: - Queries

    /// Runs `SELECT select FROM table WHERE (columns) IN (values…)` in chunks of a fixed size
    /// (``KeyChunks``: the same SQL text each time, so the statement is prepared once), calling
    /// `row` per row.
    private func forEachRow(
        select: String, from table: String, matching columns: [String], values: [[AttributeValue]],
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
                bind: { statement, parts, first in
                    for (offset, part) in parts.enumerated() {
                        statement.bind(part, at: first + Int32(offset), encoding: encoding)
                    }
                }, row: row)
        }
    }
}
