// How the row path writes the rows of each entity and what each mapping puts in them, resolved
// to plain numbers once per run: the values of a row in the order of its insert statement
// (stored attributes, then to-one columns), where each mapped attribute and to-one goes in it,
// the row a new object starts as (defaults), the attributes whose rules a row is checked
// against, and per relationship mapping its lookup and kind. The row builder reads these
// arrays of integers while it builds a million rows, never a model object or a dictionary.
// Invariant: a row of an entity is exactly `width` flat values; defaults that are not numbers,
// Booleans or dates are run constants, so a row never points into a batch it did not come from.
import GraphStore
import RecordReaders

/// The row layouts of a model and the plan's mappings onto them.
struct RowLayouts {
    /// The store's layout the rows are written in.
    let store: StoreLayout
    /// Per entity (by index): values per row.
    let widths: [Int]
    /// Per entity: where its defaults start in `defaults` (`widths[entity]` of them).
    let defaultsStart: [Int]
    /// The rows new objects start as, entity after entity.
    let defaults: [FlatValue]
    /// The values defaults refer to (`FlatValue.Kind.constant`).
    let constants: [AttributeValue]
    /// Per entity: its store ID and the index of its root entity (whose table holds its rows).
    let storeIDs: [Int64]
    let roots: [Int]
    /// Per entity: the attributes to check, with their row positions and whether they have
    /// rules beyond being required.
    let ruled: [[(attribute: ModelAttribute, column: Int, hasRules: Bool)]]
    /// Per entity: where the row positions of its attribute slots start in `slotColumns` (one per
    /// attribute of the entity, -1 when not stored).
    let slotColumnsStart: [Int]
    let slotColumns: [Int]
    /// Per mapping (by number): its entity, its key lookup (-1: none), and where its attributes'
    /// row positions start in `attributeColumns` (one per attribute of the mapping, -1 when the
    /// attribute is not stored; the mapping's last is before the next mapping's start).
    let mappingEntities: [Int]
    let keyLookups: [Int]
    /// Per mapping: whether its rows note where they first wrote their key (PlanMappings).
    let notesFirstWriters: [Bool]
    /// Whether each mapping's new rows note their record's place (their entity has a unique
    /// constraint checked after the load: ConstraintDuplicates), by mapping number.
    let notesRowPositions: [Bool]
    let attributeColumnsStart: [Int]
    let attributeColumns: [Int]
    /// Per relationship mapping (by number): its destination lookup, its column in its owners'
    /// row (-1 for a to-many), its kind, and its field (for errors).
    let relationshipLookups: [Int]
    let relationshipColumns: [Int]
    let relationshipKinds: [RelationshipKind]
    let relationshipFields: [String]

    /// What the row path does with a relationship mapping's keys.
    struct RelationshipKind {
        let isToMany: Bool
        let isOrdered: Bool
        let createsMissing: Bool
    }

    /// The row layouts of the entities of a store laid out by `layout`, and `mappings` onto them.
    init(layout: StoreLayout, mappings: PlanMappings) {
        let model = layout.model
        store = layout
        var widths: [Int] = []
        var defaultsStart: [Int] = []
        var defaults: [FlatValue] = []
        var constants: [AttributeValue] = []
        var columnsOfSlots: [[Int?]] = []
        var toOneColumns: [[Int?]] = []
        var ruled: [[(ModelAttribute, Int, Bool)]] = []
        for entity in model.entities {
            let columns = ImportSQL.rowColumns(of: entity, in: layout)
            var attributeColumns = [Int?](repeating: nil, count: entity.attributes.count)
            for (column, slot) in columns.attributes.enumerated() { attributeColumns[slot] = column }
            var relationshipColumns = [Int?](repeating: nil, count: entity.relationships.count)
            for (offset, slot) in columns.toOnes.enumerated() {
                relationshipColumns[slot] = columns.attributes.count + offset
            }
            let width = columns.attributes.count + columns.toOnes.count
            defaultsStart.append(defaults.count)
            var row = [FlatValue](repeating: .null, count: width)
            for (column, slot) in columns.attributes.enumerated() {
                guard let value = entity.attributes[slot].declaration.defaultValue else { continue }
                if let inline = FlatValue.inline(value) {
                    row[column] = inline
                } else {
                    row[column] = FlatValue(kind: .constant, bits: UInt64(constants.count))
                    constants.append(value)
                }
            }
            defaults += row
            widths.append(width)
            columnsOfSlots.append(attributeColumns)
            toOneColumns.append(relationshipColumns)
            ruled.append(
                entity.attributes.compactMap { attribute in
                    guard let column = attributeColumns[attribute.index] else { return nil }
                    let hasRules = !attribute.declaration.validation.isEmpty
                    guard !attribute.isOptional || hasRules else { return nil }
                    return (attribute, column, hasRules)
                })
        }
        self.widths = widths
        self.defaultsStart = defaultsStart
        self.defaults = defaults
        self.constants = constants
        storeIDs = model.entities.map(layout.number(of:))
        roots = model.entities.map { model.root(of: $0).index }
        self.ruled = ruled
        var slotColumnsStart: [Int] = []
        var slotColumns: [Int] = []
        for columns in columnsOfSlots {
            slotColumnsStart.append(slotColumns.count)
            slotColumns += columns.map { $0 ?? -1 }
        }
        self.slotColumnsStart = slotColumnsStart
        self.slotColumns = slotColumns
        mappingEntities = mappings.mappings.map(\.entity.index)
        keyLookups = mappings.keyLookups.map { $0 ?? -1 }
        notesFirstWriters = mappings.notesFirstWriters
        let checked = CheckedConstraint.checked(in: mappings, model: model)
        notesRowPositions = mappings.mappings.map { mapping in checked.contains { mapping.entity.isKind(of: $0.entity) }
        }
        var attributeColumnsStart: [Int] = []
        var attributeColumns: [Int] = []
        for mapping in mappings.mappings {
            attributeColumnsStart.append(attributeColumns.count)
            attributeColumns += mapping.attributes.map { columnsOfSlots[mapping.entity.index][$0.slot] ?? -1 }
        }
        self.attributeColumnsStart = attributeColumnsStart
        self.attributeColumns = attributeColumns
        relationshipLookups = mappings.referenceLookups
        relationshipColumns = mappings.relationships.indices.map { number in
            let relationship = mappings.relationships[number].relationship
            return toOneColumns[mappings.owners[number].entity.index][relationship.index] ?? -1
        }
        relationshipKinds = mappings.relationships.map { mapping in
            RelationshipKind(
                isToMany: mapping.relationship.isToMany, isOrdered: mapping.relationship.isOrdered,
                createsMissing: mapping.missing == .create)
        }
        relationshipFields = mappings.relationships.map(\.field.text)
    }

    /// The row positions of the attributes of the mapping numbered `mapping`.
    func attributeColumns(of mapping: Int) -> ArraySlice<Int> {
        let start = attributeColumnsStart[mapping]
        let end =
            mapping + 1 < attributeColumnsStart.count ? attributeColumnsStart[mapping + 1] : attributeColumns.count
        return attributeColumns[start..<end]
    }

    /// The row position of attribute `slot` of the entity at `entity` (-1: not stored).
    func column(ofSlot slot: Int, entity: Int) -> Int {
        slotColumns[slotColumnsStart[entity] + slot]
    }
}

/// The rows of one entity in a batch.
struct EntityRows {
    /// Their keys, in creation order.
    var keys: [Int64] = []
    /// `width` values per row.
    var values: [FlatValue] = []
}

/// The links of one relationship mapping in a batch: owner, member and the member's position.
struct LinkRows {
    var owners: [Int64] = []
    var members: [Int64] = []
    var positions: [Int64] = []

    /// Cuts the links back to the first `count`.
    mutating func cut(to count: Int) {
        owners.removeSubrange(count...)
        members.removeSubrange(count...)
        positions.removeSubrange(count...)
    }
}

/// A key of a new row's reference that waits for the set-based pass after the load.
struct StagedKey {
    /// The owner.
    let owner: RowReference
    /// The relationship mapping's number.
    let relationship: Int32
    /// The key's place in the reference's list.
    let ordinal: Int32
    /// The key, in the batch.
    let key: Int32
    /// Where the reference's field is.
    let place: SourcePlace
}

/// A key a new row wrote first, whose repetition fails (its error names this record too).
struct FirstWriterKey {
    /// The key's lookup number.
    let lookup: Int32
    /// The key, in the batch.
    let key: Int32
    /// Where the record is.
    let place: SourcePlace
}

/// Everything one batch of the row path writes.
struct RowBatch {
    /// New rows, by entity index.
    var rows: [EntityRows]
    /// Links of to-many relationships, by relationship mapping number.
    var links: [LinkRows]
    /// Keys for the set-based pass after the load.
    var staged: [StagedKey] = []
    /// Keys written first whose repetition fails.
    var firstWriters: [FirstWriterKey] = []
    /// New rows whose record's place is noted (RowLayouts `notesRowPositions`).
    var positions: [(row: RowReference, place: SourcePlace)] = []
    /// Where each destination created for a reference in this batch is (a record may fill it).
    var placeholders: [RowReference: (entity: Int, row: Int)] = [:]

    /// An empty batch for `entities` entities and `relationships` relationship mappings.
    init(entities: Int, relationships: Int) {
        rows = Array(repeating: EntityRows(), count: entities)
        links = Array(repeating: LinkRows(), count: relationships)
    }
}
