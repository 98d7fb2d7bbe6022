// A reference that could not be resolved when its record was applied (a forward or self
// reference, or a missing destination whose policy is reject or ignore). The deferred pass
// resolves it after every record of the run exists. Each batch stores the references it left
// in its checkpoint's transaction (metadata `import.deferred.N`), so a resumed run finds them.
import Foundation
import GraphStore
import RecordReaders

/// A reference waiting for the deferred pass.
struct DeferredReference {
    /// The object whose relationship is waiting (permanent once its batch is saved).
    var owner: ObjectID
    /// The reference, with its keys in source order.
    let reference: PreparedReference
    /// Where the record is, for errors.
    let recordPosition: SourcePosition

    /// `references` as metadata text.
    static func encode(_ references: [DeferredReference]) -> String {
        let stored = references.map { item in
            StoredDeferredReference(
                entity: item.owner.entityID, key: item.owner.key, mapping: item.reference.mapping.id,
                keys: item.reference.keys.map { $0.parts.map(\.description) }, file: item.recordPosition.file,
                line: item.recordPosition.line, column: item.recordPosition.column,
                byteOffset: item.recordPosition.byteOffset, record: item.recordPosition.recordNumber)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(stored)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }

    /// The references stored in `metadata` by the batches of a killed run, in batch order, for
    /// the relationship mappings of `mappings`.
    static func restore(from metadata: StoreMetadata, mappings: [CompiledMapping], store: UUID) throws
        -> [DeferredReference]
    {
        let relationships = mappings.reduce(into: [String: CompiledRelationship]()) { result, mapping in
            result.merge(mapping.relationshipsByID) { first, _ in first }
        }
        var restored: [DeferredReference] = []
        for (key, text) in metadata.values.sorted(by: { $0.key < $1.key })
        where key.hasPrefix(ImportCheckpoint.deferredPrefix) {
            let items = try JSONDecoder().decode([StoredDeferredReference].self, from: Data(text.utf8))
            for item in items {
                guard let mapping = relationships[item.mapping],
                    case .reference(_, let coercers, _, _, _) = mapping.source
                else { continue }
                let keys = try item.keys.map { parts in
                    KeyValue(
                        try zip(parts, coercers).map { part, coercer in try coercer.coerce(text: part) ?? .string(part)
                        })
                }
                let position = SourcePosition(
                    file: item.file, line: item.line, column: item.column, byteOffset: item.byteOffset,
                    recordNumber: item.record, path: "")
                let reference = PreparedReference(mapping: mapping, keys: keys, origin: .known(position))
                let owner = ObjectID(storeUUID: store, entityID: item.entity, key: item.key)
                restored.append(DeferredReference(owner: owner, reference: reference, recordPosition: position))
            }
        }
        return restored
    }
}

/// A deferred reference as stored in the metadata for a resume.
struct StoredDeferredReference: Codable {
    /// The owner's entity store ID and key.
    var entity: Int64
    var key: Int64
    /// The relationship mapping's id (its plan key path).
    var mapping: String
    /// Each key's parts as text.
    var keys: [[String]]
    /// Position of the field and of the record.
    var file: String
    var line: Int
    var column: Int
    var byteOffset: Int
    var record: Int
}
