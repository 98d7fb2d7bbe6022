// Repeats of a model's unique constraints in a store the run created, found before its unique
// indexes are built: a source keyed by a constraint cannot repeat it (a repeated key updates,
// keeps or fails), but any other constraint of the entities the run writes — the second of an
// entity's constraints, one a keyless source does not guard with its key, one beside a plan's
// own key — may be repeated by the data. Each later row repeating the values of an earlier one
// is a record error at the later record naming the first (their places noted as the rows were
// written, in `seedkit_import_rows`); with `skip` the later row is left out, with `abort` the
// run ends and the store it created goes, as for any bad record.
// Invariants: only constraints some writer of the entity does not key by are checked; a null in
// a constraint's attributes repeats nothing (as in SQLite's unique indexes); of rows repeating
// each other, the one whose record came first (source, then record number) stays.
import GraphStore
import RecordReaders

/// A unique constraint the run checks after the load.
struct CheckedConstraint {
    /// The entity that declares it (its sub-entities' rows share it).
    let entity: ModelEntity
    /// Its attributes, in the model's order.
    let attributes: [ModelAttribute]

    /// The constraints of the entities `mappings` write that a repeated record could break:
    /// those some mapping writing the entity is not keyed by.
    static func checked(in mappings: PlanMappings, model: ObjectModel) -> [CheckedConstraint] {
        let writers = mappings.mappings.filter { $0.routes == nil }
        var result: [CheckedConstraint] = []
        for writer in writers {
            for names in writer.entity.uniqueConstraints {
                let attributes = names.compactMap { writer.entity.attribute(named: $0) }
                guard attributes.count == names.count, !attributes.isEmpty else { continue }
                let declaring = declaringEntity(of: names, from: writer.entity, model: model)
                guard !result.contains(where: { $0.entity === declaring && $0.attributes == attributes }) else {
                    continue
                }
                let slots = Set(attributes.map(\.index))
                let guarded = writers.filter { $0.entity.isKind(of: declaring) }.allSatisfy { other in
                    guard let key = other.keyLookup, !key.goesThrough else { return false }
                    return Set(key.slots) == slots
                }
                if !guarded { result.append(CheckedConstraint(entity: declaring, attributes: attributes)) }
            }
        }
        return result
    }

    /// The highest ancestor of `entity` (or itself) that has the constraint `names`.
    private static func declaringEntity(of names: [String], from entity: ModelEntity, model: ObjectModel)
        -> ModelEntity
    {
        var current = entity
        while let parent = current.parentIndex.map({ model.entities[$0] }), parent.uniqueConstraints.contains(names) {
            current = parent
        }
        return current
    }
}

/// Finds the rows of a new store that repeat a checked constraint, and refuses their records.
struct ConstraintDuplicates {
    let target: ImportTarget
    let tally: RunTally
    let staging: StagedReferences

    private var layout: StoreLayout { target.store.layout }

    /// Refuses the later rows repeating each checked constraint (in record order) and returns
    /// them, to be left out whole.
    func run() throws -> [RowReference] {
        var refused: [(row: RowReference, error: RecordError, entity: String)] = []
        for constraint in staging.checkedConstraints {
            try target.context.readRows { connection in
                refused += try repeats(of: constraint, on: connection)
            }
        }
        refused.sort { ($0.error.file, $0.error.line) < ($1.error.file, $1.error.line) }
        for item in refused {
            try tally.reject(item.error, record: nil, entity: item.entity)
        }
        return refused.map(\.row)
    }

    /// Every row after the first of each group repeating `constraint`'s values, with its error.
    private func repeats(of constraint: CheckedConstraint, on connection: SQLiteConnection) throws
        -> [(row: RowReference, error: RecordError, entity: String)]
    {
        let table = SQLiteIdentifier.quote(layout.table(of: constraint.entity))
        let columns = constraint.attributes.map { SQLiteIdentifier.quote(layout.column(of: $0)) }
        let key = SQLiteIdentifier.quote(layout.keyColumn)
        let kind = SQLiteIdentifier.quote(layout.entityColumn)
        let kinds = "\(kind) IN (\(StoreLayout.list(layout.kindNumbers(of: constraint.entity))))"
        let present = columns.map { "\($0) IS NOT NULL" }.joined(separator: " AND ")
        let positions = StagedReferences.rowPositionsTable
        let query = try connection.prepare(
            """
            WITH repeated AS (SELECT \(columns.joined(separator: ", ")) FROM \(table) WHERE \(kinds) AND \(present)
              GROUP BY \(columns.joined(separator: ", ")) HAVING count(*) > 1)
            SELECT t.\(kind), t.\(key), coalesce(p.file, -1), coalesce(p.line, 0), coalesce(p.col, 0),
              coalesce(p.byte, 0), coalesce(p.record, 0), \(columns.map { "t.\($0)" }.joined(separator: ", "))
            FROM \(table) t JOIN repeated r ON \(columns.map { "t.\($0) = r.\($0)" }.joined(separator: " AND "))
            LEFT JOIN \(positions) p ON p.entity = t.\(kind) AND p.owner = t.\(key)
            WHERE t.\(kinds)
            ORDER BY \(columns.map { "t.\($0)" }.joined(separator: ", ")), coalesce(p.file, -1), p.record, t.\(key)
            """)
        var result: [(row: RowReference, error: RecordError, entity: String)] = []
        var first: (values: [AttributeValue], position: SourcePosition)?
        let names = constraint.attributes.map(\.name)
        while try query.step() {
            let values = constraint.attributes.enumerated().map { offset, attribute in
                query.attributeValue(at: Int32(7 + offset), type: attribute.type, encoding: layout.values)
                    ?? .string("")
            }
            let position = staging.position(
                SourcePositionParts(
                    file: query.int(2), line: query.int(3), column: query.int(4), byteOffset: query.int(5),
                    record: query.int(6)))
            guard let earlier = first, earlier.values == values else {
                first = (values, position)
                continue
            }
            let entity = layout.entity(number: query.int64(0))?.name ?? constraint.entity.name
            let key = KeyValue(values)
            result.append(
                (
                    RowReference(entityID: query.int64(0), key: query.int64(1)),
                    RecordError(
                        position: position, field: field(of: constraint.attributes[0], in: constraint.entity),
                        value: key.description,
                        message: "\(entity) with \(names.joined(separator: ", ")) \(key) already exists "
                            + "(the unique constraint [\(names.joined(separator: ", "))] of \(constraint.entity.name)); "
                            + "first written by the record at \(earlier.position)"),
                    entity
                ))
        }
        return result
    }

    /// The field a mapping of `entity` (or a sub-entity) reads `attribute` from, else its name.
    private func field(of attribute: ModelAttribute, in entity: ModelEntity) -> String {
        for mapping in staging.mappings.mappings where mapping.entity.isKind(of: entity) {
            if let field = mapping.attributes.first(where: { $0.slot == attribute.index })?.field {
                return field.text
            }
        }
        return attribute.name
    }
}
