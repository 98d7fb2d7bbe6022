// The set-based pass over the references new rows staged during the load, once every row is
// written and the store's indexes are built: destinations for `missing: create` keys that no
// row has are created (in the order first referred to), then each relationship mapping's
// staged keys are looked up in key order into a temporary table, from which they become links in
// one statement (to-one columns, join rows with their positions, members' columns), and what
// still names nothing is refused (`reject`) or dropped (`ignore`).
// Invariants: memory holds one chunk of keys, or the refused records up to the run's error
// budget, never the staged references; the pass can run again after a kill (links are written
// idempotently and the staged rows go only after the refused records are left out).
import GraphStore

/// Resolves the staged references of new rows.
struct StagedResolution {
    let target: ImportTarget
    let tally: RunTally
    let staging: StagedReferences
    let layouts: RowLayouts
    let commit: BatchCommit
    let batchSize: Int

    private var context: ObjectContext { target.context }
    private var model: ObjectModel { target.context.model }
    private var layout: StoreLayout { target.store.layout }

    /// A staged reference the pass refuses, in staging order.
    private struct Refusal {
        let seq: Int64
        let owner: RowReference
        let error: RecordError
    }

    /// Runs the pass over the relationship mappings `only` names (nil: all); the records
    /// refused with `skip` are returned, to be left out whole.
    func run(only: Set<Int>? = nil) throws -> [RowReference] {
        let mappings = try context.readRows { try stagedMappings(on: $0) }.filter { only?.contains($0) ?? true }
        guard !mappings.isEmpty else { return [] }
        let lookups = Dictionary(grouping: mappings) { staging.mappings.relationships[$0].lookup }
        var temporaryIndexes: [String] = []
        try context.writeRows { connection in
            for (number, lookup) in lookups.keys.enumerated() {
                let columns = ImportSQL.LookupColumns(lookup, layout: layout)
                if let name = try ImportSQL.ensureIndex(for: columns, number: number, on: connection) {
                    temporaryIndexes.append(name)
                }
            }
        }
        var failedKeys: [LookupID: [KeyValue: RuleViolation]] = [:]
        for (lookup, group) in lookups {
            let creating = group.filter { staging.mappings.relationships[$0].missing == .create }
            if !creating.isEmpty { failedKeys[lookup] = try createMissing(lookup, mappings: creating) }
        }
        try context.writeRows { connection in
            try connection.execute(ImportSQL.createResolved)
            for mapping in mappings {
                let relationship = staging.mappings.relationships[mapping]
                let columns = ImportSQL.LookupColumns(relationship.lookup, layout: layout)
                try connection.execute(ImportSQL.resolve(mapping: mapping, lookup: columns, staging: staging))
                let owner = staging.mappings.owners[mapping].entity
                if let link = ImportSQL.link(
                    relationship.relationship, of: owner, layout: layout, resolved: ImportSQL.resolved(mapping: mapping)
                ) {
                    try connection.execute(link)
                }
            }
        }
        var refusals: [Refusal] = []
        for mapping in mappings {
            refusals += try refused(
                mapping, failedKeys: failedKeys[staging.mappings.relationships[mapping].lookup] ?? [:])
        }
        refusals.sort { $0.seq < $1.seq }
        var owners: [RowReference] = []
        for refusal in refusals {
            try tally.reject(
                refusal.error, record: nil,
                entity: layout.entity(number: refusal.owner.entityID)?.name ?? "")
            owners.append(refusal.owner)
        }
        try context.writeRows { connection in
            try connection.execute(
                "DELETE FROM \(StagedReferences.table) WHERE objects = 0"
                    + (only == nil ? "" : " AND mapping IN (\(StoreLayout.list(mappings.map(Int64.init))))"))
            try connection.execute("DROP TABLE IF EXISTS \(ImportSQL.resolvedTable)")
            for name in temporaryIndexes { try connection.execute("DROP INDEX IF EXISTS \(name)") }
        }
        return owners
    }

    /// The relationship mappings that have staged keys of new rows.
    private func stagedMappings(on connection: SQLiteConnection) throws -> [Int] {
        let query = try connection.prepare(
            "SELECT DISTINCT mapping FROM \(StagedReferences.table) WHERE objects = 0 ORDER BY mapping")
        var mappings: [Int] = []
        while try query.step() {
            if staging.relationship(query.int(0)) != nil { mappings.append(query.int(0)) }
        }
        return mappings
    }

    /// Creates a row for every key the `missing: create` mappings `mappings` staged that names
    /// no destination, a chunk at a time; returns the keys whose row would break a rule (up to
    /// the run's error budget: each fails a record).
    private func createMissing(_ lookup: LookupID, mappings: [Int]) throws -> [KeyValue: RuleViolation] {
        let columns = ImportSQL.LookupColumns(lookup, layout: layout)
        var failed: [KeyValue: RuleViolation] = [:]
        try context.writeRows { connection in
            try connection.execute("DROP TABLE IF EXISTS temp.seedkit_import_missing")
            try connection.execute(
                "CREATE TEMP TABLE seedkit_import_missing AS "
                    + ImportSQL.missingKeys(mappings: mappings, lookup: columns, staging: staging))
        }
        let lookupNumber = staging.number(of: lookup)
        var offset: Int64 = 0
        while true {
            // The keys of this chunk, their values in a batch of their own.
            var keys = PreparedBatch()
            try context.readRows { connection in
                let query = try connection.cachedStatement(
                    "SELECT * FROM temp.seedkit_import_missing WHERE rowid > ? ORDER BY rowid LIMIT ?")
                defer { query.reset() }
                query.bind(offset, at: 1)
                query.bind(Int64(batchSize), at: 2)
                while try query.step() {
                    let parts = lookup.partAttributes(in: model).enumerated().map { offset, attribute in
                        query.attributeValue(at: Int32(offset), type: attribute.type, encoding: layout.values)
                            ?? .string("")
                    }
                    keys.append(key: parts)
                }
            }
            guard !keys.keys.isEmpty else { break }
            offset += Int64(keys.keys.count)
            var builder = RowBuilder(
                mappings: staging.mappings, layouts: layouts, keys: KeyIndex(capacity: 0, lookups: 0),
                nextKeys: try context.readRows { try ImportSQL.nextFreeKeys(on: $0, layout: layout) }, file: "")
            var rows = RowBatch(entities: model.entities.count, relationships: staging.mappings.relationships.count)
            for key in keys.keys {
                if case .failure(let violation) = try builder.placeholder(
                    lookupNumber, parts: keys.parts(of: key), of: keys, to: &rows), failed.count <= tally.errorBudget
                {
                    failed[keys.keyValue(key)] = violation
                }
            }
            try commit.write(rows, of: keys, source: 0)
        }
        try context.writeRows { try $0.execute("DROP TABLE IF EXISTS temp.seedkit_import_missing") }
        return failed
    }

    /// The staged references of `mapping` that still name nothing and are refused: `reject`
    /// ones, and `create` ones whose destination would break a rule (`failedKeys`).
    private func refused(_ mapping: Int, failedKeys: [KeyValue: RuleViolation]) throws -> [Refusal] {
        let relationship = staging.mappings.relationships[mapping]
        guard relationship.missing != .ignore else { return [] }
        var refusals: [Refusal] = []
        try context.readRows { connection in
            let query = try connection.prepare(ImportSQL.unresolved(mapping: mapping, staging: staging))
            var current: (ref: Int64, seq: Int64, owner: RowReference, keys: [KeyValue], position: SourcePositionParts)?
            func flush() {
                guard let current else { return }
                refusals.append(
                    Refusal(
                        seq: current.seq, owner: current.owner,
                        error: error(
                            for: relationship, keys: current.keys, at: current.position, failedKeys: failedKeys)))
            }
            while try query.step() {
                let ref = query.int64(1)
                let key = KeyValue(
                    relationship.lookup.partAttributes(in: model).enumerated().map { offset, attribute in
                        query.attributeValue(at: Int32(4 + offset), type: attribute.type, encoding: layout.values)
                            ?? .string("")
                    })
                if relationship.missing == .create && failedKeys[key] == nil { continue }
                if current?.ref != ref {
                    flush()
                    guard refusals.count <= tally.errorBudget else { return }
                    let base = Int32(4 + staging.keyWidth)
                    current = (
                        ref, query.int64(0), RowReference(entityID: query.int64(2), key: query.int64(3)), [],
                        SourcePositionParts(
                            file: query.int(base), line: query.int(base + 1), column: query.int(base + 2),
                            byteOffset: query.int(base + 3), record: query.int(base + 4))
                    )
                }
                current?.keys.append(key)
            }
            flush()
        }
        return refusals
    }

    private func error(
        for relationship: CompiledRelationship, keys: [KeyValue], at position: SourcePositionParts,
        failedKeys: [KeyValue: RuleViolation]
    ) -> RecordError {
        let at = staging.position(position)
        if let violation = keys.lazy.compactMap({ failedKeys[$0] }).first {
            return RecordError(
                position: at, field: relationship.field.text, value: violation.value, message: violation.message)
        }
        return RecordError(
            position: at, field: relationship.field.text, value: keys.map(\.description).joined(separator: ", "),
            message: relationship.noDestination(keys[0], model: model))
    }
}
