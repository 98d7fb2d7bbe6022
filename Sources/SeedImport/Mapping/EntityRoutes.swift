// A mapping's `entityField` at run time: one compiled mapping per entity a record may name (the
// mapping's entity and its concrete sub-entities), and the choice among them for each record by
// the field's text. A record naming no such entity is a record error at the field's position.
// Invariant: every routed mapping matches by the same key lookup (the mapping's entity's), so a
// key names one object whichever entity a record names.
import GraphStore
import RecordReaders

/// The mappings a record is routed to by the entity its `entityField` names.
final class EntityRoutes: Sendable {
    /// The field naming each record's entity.
    let field: FieldPath
    /// The mapping's entity (what records may name is it or one of its sub-entities).
    let entity: ModelEntity
    /// The mapping for each entity a record may name, by entity name.
    let mappings: [String: CompiledMapping]

    init(field: FieldPath, entity: ModelEntity, mappings: [String: CompiledMapping]) {
        self.field = field
        self.entity = entity
        self.mappings = mappings
    }

    /// The mappings in entity-name order.
    var ordered: [CompiledMapping] {
        mappings.sorted { $0.key < $1.key }.map(\.value)
    }

    /// The mapping of the entity `record` names.
    func mapping(for record: SourceRecord) throws(RecordError) -> CompiledMapping {
        let value = record[field]
        let name = value.flatMap { $0.kind == .null ? nil : $0.string } ?? ""
        if let mapping = mappings[name] { return mapping }
        let names = mappings.keys.sorted().joined(separator: ", ")
        throw RecordError(
            position: value?.position ?? record.position, field: field.text, value: value == nil ? nil : name,
            message: name.isEmpty
                ? "the record names no entity: \(field.text) must be one of \(names)"
                : "'\(name)' is not \(entity.name) or one of its concrete sub-entities (\(names))")
    }

    /// The error of a record of `mapping` whose key names an object of `existing`, an entity the
    /// record's is not (it named another sub-entity of the key's entity).
    static func mismatch(_ existing: ModelEntity, key: KeyValue, mapping: CompiledMapping, at position: SourcePosition)
        -> RecordError
    {
        RecordError(
            position: position, field: mapping.keyAttributes.first?.field?.text, value: key.description,
            message: "the \(existing.name) with key \(key) cannot become a \(mapping.entity.name)")
    }

    /// The same routes with each mapping's top-level field paths replaced through `resolved`
    /// (in the order of ``CompiledMapping/topLevelFields``: this field, then each mapping's in
    /// entity-name order).
    func resolving(_ resolved: inout IndexingIterator<[FieldPath]>) -> EntityRoutes {
        let field = resolved.next() ?? self.field
        var mappings: [String: CompiledMapping] = [:]
        for (name, mapping) in self.mappings.sorted(by: { $0.key < $1.key }) {
            let count = mapping.topLevelFields.count
            mappings[name] = mapping.resolving((0..<count).map { _ in resolved.next() }.compactMap { $0 })
        }
        return EntityRoutes(field: field, entity: entity, mappings: mappings)
    }
}
