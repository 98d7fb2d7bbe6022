// Turns a batch of prepared records into rows for a store the run created: new keys handed out
// in order, attribute defaults and values, rule checks per row, references resolved through the
// run's key index (or created, or set aside for the deferred pass), nested records built
// recursively — the same outcome as applying the records to objects, without the objects.
// Invariants: a record either adds its row and links whole or is refused with a RecordError
// (destinations it created stay, as they would with objects). Nothing here touches the store;
// the run's key index learns the batch's keys as rows are built, which is safe because a batch
// that fails to write ends the run.
import GraphStore
import RecordReaders

/// Builds row batches.
struct RowBatchBuilder {
    private let model: ObjectModel
    private let layout: StoreLayout
    private let resolver: ObjectResolver
    private var checker = AttributeRuleChecker()
    /// The next free key of each root table, by the root entity's index.
    private var nextKeys: [Int64]
    /// Per entity: the index of its root entity (whose table holds its rows).
    private let roots: [Int]
    /// Per entity: the attribute values a new row starts with (defaults).
    private let defaults: [[AttributeValue?]]
    /// Per entity: the attributes with a rule to check (required, or validation rules).
    private let ruled: [[ModelAttribute]]

    /// A builder handing out keys from `nextKeys` (per root table).
    init(layout: StoreLayout, resolver: ObjectResolver, nextKeys: [String: Int64]) {
        let model = layout.model
        self.model = model
        self.layout = layout
        self.resolver = resolver
        roots = model.entities.map { model.root(of: $0).index }
        self.nextKeys = model.entities.map { nextKeys[layout.table(of: $0)] ?? 1 }
        defaults = model.entities.map { $0.attributes.map(\.declaration.defaultValue) }
        ruled = model.entities.map { entity in
            entity.attributes.filter { attribute in
                (!attribute.isOptional && !attribute.isTransient) || !attribute.declaration.validation.isEmpty
            }
        }
    }

    /// Whether the row path can take these records: none of their keys (nested ones included)
    /// names a row that exists already or another record of the batch. Such records update
    /// objects, which the object path does.
    static func admits(_ records: [(PreparedObject, SourceRecord)], resolver: ObjectResolver) -> Bool {
        var seen: [LookupID: Set<KeyValue>] = [:]
        func admits(_ object: PreparedObject) -> Bool {
            if let key = object.key, let lookup = object.mapping.keyLookup {
                guard resolver.row(lookup, key) == nil, seen[lookup, default: []].insert(key).inserted else {
                    return false
                }
            }
            return object.nested.allSatisfy { $0.objects.allSatisfy(admits) }
        }
        return records.allSatisfy { admits($0.0) }
    }

    /// Adds `object` (a record) to `batch` and returns its row key.
    ///
    /// - Throws: ``RecordError`` when the record breaks a rule; the batch then holds nothing of
    ///   the record but destinations its references created.
    @discardableResult
    mutating func add(_ object: PreparedObject, to batch: inout RowBatch) throws -> Int64 {
        let mapping = object.mapping
        var row: PendingRow
        var placeholder: Int?
        if let key = object.key, let lookup = mapping.keyLookup {
            // The only rows a record's key can name here are destinations references of this batch
            // created (``admits(_:resolver:)`` sent every other case to the object path): the
            // record fills them, whatever the conflict policy.
            if resolver.fillPlaceholder(lookup, key), let existing = resolver.row(lookup, key),
                let index = batch.placeholders[existing]
            {
                // A record routed by `entityField` may name a sub-entity the placeholder is not.
                guard batch.rows[index].entity.isKind(of: mapping.entity) else {
                    throw EntityRoutes.mismatch(
                        batch.rows[index].entity, key: key, mapping: mapping, at: object.position)
                }
                placeholder = index
                row = batch.rows[index]
            } else {
                row = newRow(of: mapping.entity)
                // Known before its references resolve, so a record can refer to itself.
                resolver.register(row: row.row, lookup, key)
            }
        } else {
            row = newRow(of: mapping.entity)
        }
        do {
            try fill(&row, from: object, in: &batch)
        } catch {
            if placeholder == nil, let key = object.key, let lookup = mapping.keyLookup {
                resolver.unregister(lookup, key)
            }
            throw error
        }
        if let placeholder { batch.rows[placeholder] = row } else { batch.rows.append(row) }
        return row.row.key
    }

    /// Sets `row`'s values and relationships from `object`, checking its rules; adds its links and
    /// deferred references to `batch` only when all of it succeeds.
    private mutating func fill(_ row: inout PendingRow, from object: PreparedObject, in batch: inout RowBatch) throws {
        for index in object.values.indices {
            row.values[object.values[index].slot] = object.values[index].value
        }
        try check(row, origin: object.origin, field: nil)
        var links: [PendingLink] = []
        var deferrals: [PendingDeferral] = []
        for index in object.references.indices {
            try resolve(
                object.references[index], of: &row, links: &links, deferrals: &deferrals, at: object.origin,
                in: &batch)
        }
        for nested in object.nested {
            var members: [Int64] = []
            for child in nested.objects { members.append(try add(child, to: &batch)) }
            set(nested.mapping.relationship, of: &row, to: members, links: &links)
        }
        batch.links += links
        batch.deferrals += deferrals
    }

    // MARK: - Rows

    private mutating func newRow(of entity: ModelEntity) -> PendingRow {
        let root = roots[entity.index]
        let key = nextKeys[root]
        nextKeys[root] = key + 1
        return PendingRow(
            entity: entity, row: RowReference(entityID: layout.number(of: entity), key: key),
            values: defaults[entity.index],
            toOne: Array(repeating: nil, count: entity.relationships.count))
    }

    /// Refuses a row that breaks its attributes' rules, as a save would.
    private mutating func check(_ row: PendingRow, origin: PreparedPosition, field: String?) throws {
        for attribute in ruled[row.entity.index] {
            let value = row.values[attribute.index]
            guard let rule = try checker.violations(of: value, attribute: attribute).first else { continue }
            throw RecordError(
                position: origin.resolved, field: field ?? attribute.name, value: value.map { "\($0)" },
                message: "\(row.entity.name).\(attribute.name) \(rule)")
        }
    }

    // MARK: - Relationships

    private mutating func resolve(
        _ reference: PreparedReference, of row: inout PendingRow, links: inout [PendingLink],
        deferrals: inout [PendingDeferral], at origin: PreparedPosition, in batch: inout RowBatch
    ) throws {
        var members: [Int64] = []
        members.reserveCapacity(reference.keys.count)
        var unresolved = false
        let lookup = reference.lookup
        for key in reference.keys {
            if let found = resolver.row(lookup, key) {
                members.append(found.key)
            } else if reference.missing == .create {
                members.append(try createDestination(reference, key, in: &batch).key)
            } else {
                unresolved = true
            }
        }
        let relationship = reference.mapping.relationship
        if unresolved {
            deferrals.append(PendingDeferral(owner: row.row, reference: reference, origin: origin))
            // An ordered relationship waits whole, so its members keep the source's order.
            if relationship.isOrdered { return }
        }
        set(relationship, of: &row, to: members, links: &links)
    }

    private mutating func createDestination(_ reference: PreparedReference, _ key: KeyValue, in batch: inout RowBatch)
        throws -> RowReference
    {
        var row = newRow(of: model.entities[reference.lookup.entityIndex])
        for (slot, part) in zip(reference.lookup.slots, key.parts) where slot != LookupID.identitySlot {
            row.values[slot] = part
        }
        try check(row, origin: reference.origin, field: reference.field)
        resolver.register(row: row.row, reference.lookup, key)
        resolver.markPlaceholder(reference.lookup, key)
        batch.placeholders[row.row] = batch.rows.count
        batch.rows.append(row)
        return row.row
    }

    private func set(
        _ relationship: ModelRelationship, of row: inout PendingRow, to members: [Int64], links: inout [PendingLink]
    ) {
        if relationship.isToMany {
            if !members.isEmpty {
                links.append(PendingLink(relationship: relationship, owner: row.row.key, members: members))
            }
        } else {
            row.toOne[relationship.index] = members.first
        }
    }
}
