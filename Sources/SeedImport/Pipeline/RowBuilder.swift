// The row path's batch builder: turns the prepared records of a batch into rows for a store the
// run created — new keys handed out in order, defaults and values (flat values, text left in
// the prepared batch's arena), rule checks per row, references resolved through the run's key
// index (or their destinations created, or the keys it cannot resolve staged for the set-based
// pass after the load), nested records built recursively — the same outcome as applying the
// records to objects, without the objects.
// Invariants: a record either adds its row and links whole or is refused with a RecordError
// (destinations it created stay, as they would with objects). Nothing here touches the store;
// the run's key index learns the batch's keys as rows are built, which is safe because a batch
// that fails to write ends the run. A destination is created for a reference only while the
// index can hold its key (so a later record with that key finds and fills it); otherwise the
// set-based pass creates it. Building a row allocates nothing once the batch's buffers have
// grown: rows are made in reused scratch rows, links and staged keys appended in place and cut
// back when a record is refused.
import GraphStore
import RecordReaders

/// A rule a new row breaks, as a save would report it.
struct RuleViolation: Error {
    /// The attribute.
    let attribute: String
    /// Its value, as text.
    let value: String?
    /// `Entity.attribute rule`.
    let message: String
}

/// Builds row batches.
struct RowBuilder {
    private let entities: [ModelEntity]
    private let mappings: [CompiledMapping]
    private let lookups: [LookupID]
    private let layouts: RowLayouts
    private let keys: KeyIndex
    private var checker = AttributeRuleChecker()
    /// The next free key of each root table, by the root entity's index.
    private var nextKeys: [Int64]
    /// The file the batch's records come from, for errors.
    private let file: String
    /// Rows being built, one per level of nesting.
    private var scratch: [[FlatValue]] = []
    private var depth = 0

    /// A builder of rows in `layouts` for `mappings`, handing out keys from `nextKeys` (per root
    /// table) for records of `file`.
    init(mappings: PlanMappings, layouts: RowLayouts, keys: KeyIndex, nextKeys: [String: Int64], file: String) {
        let model = layouts.store.model
        entities = model.entities
        self.mappings = mappings.mappings
        lookups = mappings.lookups
        self.layouts = layouts
        self.keys = keys
        self.file = file
        self.nextKeys = model.entities.map { nextKeys[layouts.store.table(of: $0)] ?? 1 }
    }

    /// Adds the record at `index` of `batch` (with its nested records) to `rows` and returns its
    /// row key; `keyBytes` are the batch's key bytes.
    ///
    /// - Throws: ``RecordError`` when the record breaks a rule; `rows` then hold nothing of the
    ///   record but destinations its references created.
    @discardableResult
    mutating func add(
        _ index: Int32, of batch: PreparedBatch, keyBytes: UnsafeRawBufferPointer, to rows: inout RowBatch
    ) throws -> Int64 {
        let entry = batch.entries[Int(index)]
        let entity = layouts.mappingEntities[Int(entry.mapping)]
        let width = layouts.widths[entity]
        if scratch.count == depth { scratch.append([]) }
        depth += 1
        defer { depth -= 1 }
        var row = scratch[depth - 1]
        scratch[depth - 1] = []
        defer { scratch[depth - 1] = row }
        row.removeAll(keepingCapacity: true)
        let key = entry.key >= 0 ? Self.indexKey(batch.keys[Int(entry.key)], keyBytes) : nil
        let keyLookup = layouts.keyLookups[Int(entry.mapping)]
        let lookup = keyLookup >= 0 ? keyLookup : nil
        var reference: RowReference
        var filling: Int?
        if let key, let lookup, case .row(let existing, placeholder: true) = keys.find(lookup, key),
            let place = rows.placeholders[existing]
        {
            // The only rows a record's key can name here are destinations references of this
            // batch created (BatchBuilder sent every other case to the object path): the record
            // fills them, whatever the conflict policy — unless, routed by `entityField`, it
            // names another entity than the destination's.
            guard place.entity == entity else {
                throw EntityRoutes.mismatch(
                    entities[place.entity], key: batch.keyValue(batch.keys[Int(entry.key)]),
                    mapping: mappings[Int(entry.mapping)], at: entry.place.position(in: file))
            }
            _ = keys.fillPlaceholder(lookup, key)
            (reference, filling) = (existing, place.row)
            row.append(contentsOf: rows.rows[entity].values[place.row * width..<(place.row + 1) * width])
        } else {
            reference = newRow(of: entity)
            let start = layouts.defaultsStart[entity]
            row.append(contentsOf: layouts.defaults[start..<start + width])
            // Known before its references resolve, so a record can refer to itself.
            if let key, let lookup { keys.register(reference, lookup, key) }
        }
        let linkMarks = linkCounts(of: rows)
        let stagedMark = rows.staged.count
        let firstWritersMark = rows.firstWriters.count
        do {
            try fill(&row, of: reference, from: entry, of: batch, keyBytes: keyBytes, to: &rows)
        } catch {
            if filling == nil, let key, let lookup { keys.forget(lookup, key) }
            for (number, mark) in linkMarks.enumerated() where rows.links[number].owners.count > mark {
                rows.links[number].cut(to: mark)
            }
            rows.staged.removeSubrange(stagedMark...)
            rows.firstWriters.removeSubrange(firstWritersMark...)
            throw error
        }
        if let lookup, layouts.notesFirstWriters[Int(entry.mapping)] {
            rows.firstWriters.append(FirstWriterKey(lookup: Int32(lookup), key: entry.key, place: entry.place))
        }
        if filling == nil && layouts.notesRowPositions[Int(entry.mapping)] {
            rows.positions.append((reference, entry.place))
        }
        if let filling {
            rows.rows[entity].values.replaceSubrange(filling * width..<(filling + 1) * width, with: row)
        } else {
            rows.rows[entity].keys.append(reference.key)
            rows.rows[entity].values.append(contentsOf: row)
        }
        return reference.key
    }

    /// Sets `row`'s values and relationships from `entry`, checking its rules, and adds its
    /// links and staged keys to `rows`.
    private mutating func fill(
        _ row: inout [FlatValue], of owner: RowReference, from entry: PreparedEntry, of batch: PreparedBatch,
        keyBytes: UnsafeRawBufferPointer, to rows: inout RowBatch
    ) throws {
        let mapping = Int(entry.mapping)
        for (position, column) in layouts.attributeColumns(of: mapping).enumerated() {
            let value = batch.values[Int(entry.values) + position]
            if value.kind != .absent && column >= 0 { row[column] = value }
        }
        let entity = layouts.mappingEntities[mapping]
        if let violation = try violation(of: row, entity: entity, batch: batch) {
            throw RecordError(
                position: entry.place.position(in: file), field: violation.attribute, value: violation.value,
                message: violation.message)
        }
        for flat in batch.references[Int(entry.firstReference)..<Int(entry.firstReference + entry.referenceCount)] {
            try resolve(flat, of: owner, row: &row, batch: batch, keyBytes: keyBytes, rows: &rows)
        }
        for group in batch.groups[Int(entry.firstGroup)..<Int(entry.firstGroup + entry.groupCount)] {
            let relationship = Int(group.relationship)
            var first: Int64?
            for (position, child) in batch.children[Int(group.firstChild)..<Int(group.firstChild + group.childCount)]
                .enumerated()
            {
                let key = try add(child, of: batch, keyBytes: keyBytes, to: &rows)
                if layouts.relationshipKinds[relationship].isToMany {
                    link(owner.key, to: key, at: position, relationship: relationship, in: &rows)
                } else if first == nil {
                    first = key
                }
            }
            if !layouts.relationshipKinds[relationship].isToMany { setToOne(relationship, of: &row, to: first) }
        }
    }

    /// How many links each relationship mapping has in `rows` (to cut back to).
    private func linkCounts(of rows: RowBatch) -> [Int] {
        var counts: [Int] = []
        counts.reserveCapacity(rows.links.count)
        for links in rows.links { counts.append(links.owners.count) }
        return counts
    }

    // MARK: - Rows

    private mutating func newRow(of entity: Int) -> RowReference {
        let root = layouts.roots[entity]
        let key = nextKeys[root]
        nextKeys[root] = key + 1
        return RowReference(entityID: layouts.storeIDs[entity], key: key)
    }

    /// The first rule of its attributes `row` breaks, as a save would report it.
    private mutating func violation(of row: [FlatValue], entity: Int, batch: PreparedBatch) throws -> RuleViolation? {
        for (attribute, column, hasRules) in layouts.ruled[entity] {
            let flat = row[column]
            // Most values need no rule but being there: they are checked without being made whole.
            if !hasRules && !flat.isNil { continue }
            let value = batch.attributeValue(flat, constants: layouts.constants)
            guard let rule = try checker.violations(of: value, attribute: attribute).first else { continue }
            return RuleViolation(
                attribute: attribute.name, value: value.map { "\($0)" },
                message: "\(entities[entity].name).\(attribute.name) \(rule)")
        }
        return nil
    }

    /// A new row of the destination of the lookup numbered `lookup` holding `parts` (a key of
    /// `batch`, for a reference whose destination is missing), added to `rows`; or the rule the
    /// row would break.
    mutating func placeholder(
        _ lookup: Int, parts: ArraySlice<FlatValue>, of batch: PreparedBatch, to rows: inout RowBatch
    ) throws -> Result<RowReference, RuleViolation> {
        let lookupID = lookups[lookup]
        let entity = lookupID.entityIndex
        let width = layouts.widths[entity]
        let start = layouts.defaultsStart[entity]
        var row = Array(layouts.defaults[start..<start + width])
        for (slot, part) in zip(lookupID.slots, parts) where slot != LookupID.identitySlot {
            let column = layouts.column(ofSlot: slot, entity: entity)
            if column >= 0 { row[column] = part }
        }
        if let violation = try violation(of: row, entity: entity, batch: batch) { return .failure(violation) }
        let reference = newRow(of: entity)
        rows.placeholders[reference] = (entity, rows.rows[entity].keys.count)
        rows.rows[entity].keys.append(reference.key)
        rows.rows[entity].values.append(contentsOf: row)
        return .success(reference)
    }

    // MARK: - Relationships

    private mutating func resolve(
        _ flat: FlatReference, of owner: RowReference, row: inout [FlatValue], batch: PreparedBatch,
        keyBytes: UnsafeRawBufferPointer, rows: inout RowBatch
    ) throws {
        let relationship = Int(flat.relationship)
        let kind = layouts.relationshipKinds[relationship]
        let lookup = layouts.relationshipLookups[relationship]
        let firstLink = rows.links[relationship].owners.count
        var member: Int64?
        var position = 0
        var waits = false
        for ordinal in 0..<flat.keyCount {
            let preparedKey = batch.keys[Int(flat.firstKey + ordinal)]
            let key = Self.indexKey(preparedKey, keyBytes)
            var found: Int64?
            switch keys.find(lookup, key) {
            case .row(let row, _):
                found = row.key
            case .absent where kind.createsMissing && keys.canLearn(lookup, key):
                found = try createDestination(
                    relationship, lookup: lookup, key: key, parts: preparedKey, at: flat, of: batch, to: &rows)
            case .absent, .unknown:
                waits = true
                if !kind.isOrdered { stage(flat, ordinal: ordinal, of: owner, in: &rows) }
            }
            guard let found else { continue }
            if kind.isToMany {
                link(owner.key, to: found, at: position, relationship: relationship, in: &rows)
                position += 1
            } else {
                member = found
            }
        }
        if waits && kind.isOrdered {
            // An ordered relationship waits whole, so its members keep the source's order.
            rows.links[relationship].cut(to: firstLink)
            for ordinal in 0..<flat.keyCount { stage(flat, ordinal: ordinal, of: owner, in: &rows) }
            return
        }
        if !kind.isToMany { setToOne(relationship, of: &row, to: member) }
    }

    private func stage(_ flat: FlatReference, ordinal: Int32, of owner: RowReference, in rows: inout RowBatch) {
        rows.staged.append(
            StagedKey(
                owner: owner, relationship: flat.relationship, ordinal: ordinal, key: flat.firstKey + ordinal,
                place: flat.place))
    }

    private func link(_ owner: Int64, to member: Int64, at position: Int, relationship: Int, in rows: inout RowBatch) {
        rows.links[relationship].owners.append(owner)
        rows.links[relationship].members.append(member)
        rows.links[relationship].positions.append(Int64(position))
    }

    private func setToOne(_ relationship: Int, of row: inout [FlatValue], to member: Int64?) {
        let column = layouts.relationshipColumns[relationship]
        guard column >= 0 else { return }
        row[column] = member.map { FlatValue(kind: .integer, bits: UInt64(bitPattern: $0)) } ?? .null
    }

    private mutating func createDestination(
        _ relationship: Int, lookup: Int, key: IndexKey, parts: PreparedKey, at flat: FlatReference,
        of batch: PreparedBatch, to rows: inout RowBatch
    ) throws -> Int64 {
        switch try placeholder(lookup, parts: batch.parts(of: parts), of: batch, to: &rows) {
        case .success(let reference):
            keys.register(reference, lookup, key, placeholder: true)
            return reference.key
        case .failure(let violation):
            throw RecordError(
                position: flat.place.position(in: file), field: layouts.relationshipFields[relationship],
                value: violation.value, message: violation.message)
        }
    }

    /// `key` as the index takes it, its bytes in `keyBytes` (the batch's).
    static func indexKey(_ key: PreparedKey, _ keyBytes: UnsafeRawBufferPointer) -> IndexKey {
        IndexKey(
            hash: key.hash,
            bytes: UnsafeRawBufferPointer(rebasing: keyBytes[Int(key.firstByte)..<Int(key.firstByte + key.byteCount)]))
    }
}
