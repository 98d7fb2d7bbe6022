// Phase one of applying a record: evaluate every mapped field and coerce it, collecting the
// first problem as a RecordError with the field's exact position.
// Invariant: preparing never touches the context.
import GraphStore
import RecordReaders

/// Turns records into ``PreparedObject``s.
struct RecordPreparer {
    /// Prepares `record` for `mapping`.
    func prepare(_ record: SourceRecord, mapping: CompiledMapping) throws(RecordError) -> PreparedObject {
        if let routes = mapping.routes { return try prepare(record, mapping: routes.mapping(for: record)) }
        var keyParts: [AttributeValue] = []
        for attribute in mapping.keyAttributes {
            guard let value = try coerce(attribute, in: record) ?? nil else {
                throw RecordError(
                    position: fieldPosition(attribute.field, in: record),
                    field: attribute.field?.text ?? attribute.name,
                    message: "the key attribute \(mapping.entity.name).\(attribute.name) has no value")
            }
            keyParts.append(value)
        }
        var values: [(slot: Int, value: AttributeValue?)] = []
        values.reserveCapacity(mapping.attributes.count)
        for attribute in mapping.attributes {
            if let value = try coerce(attribute, in: record) {
                values.append((attribute.slot, value))
            }
        }
        var references: [PreparedReference] = []
        var nested: [PreparedNested] = []
        for relationship in mapping.relationships {
            let value = record[relationship.field]
            switch relationship.source {
            case .reference(_, let coercers, let matchNames, _, let split):
                guard let value else { continue }
                let keys = try referenceKeys(
                    value, coercers: coercers, matchNames: matchNames, split: split, field: relationship.field.text)
                if !relationship.relationship.isToMany && keys.count > 1 {
                    throw RecordError(
                        position: value.position, field: relationship.field.text,
                        message:
                            "\(mapping.entity.name).\(relationship.relationship.name) is a to-one relationship but the field holds \(keys.count) keys"
                    )
                }
                references.append(PreparedReference(mapping: relationship, keys: keys, origin: .value(value)))
            case .nested(let nestedMapping):
                guard let value else { continue }
                let records = nestedRecords(value)
                if !relationship.relationship.isToMany && records.count > 1 {
                    throw RecordError(
                        position: value.position, field: relationship.field.text,
                        message:
                            "\(mapping.entity.name).\(relationship.relationship.name) is a to-one relationship but the field holds \(records.count) records"
                    )
                }
                var objects: [PreparedObject] = []
                for nestedRecord in records {
                    objects.append(try prepare(nestedRecord, mapping: nestedMapping))
                }
                nested.append(PreparedNested(mapping: relationship, objects: objects))
            }
        }
        return PreparedObject(
            mapping: mapping, key: keyParts.isEmpty ? nil : KeyValue(keyParts), values: values,
            references: references, nested: nested, origin: .record(record))
    }

    /// The attribute's value for `record`: `.some(value)` to set (nil clears), `nil` to leave
    /// the attribute alone (its field is absent and it has no default).
    private func coerce(_ attribute: CompiledAttribute, in record: SourceRecord) throws(RecordError) -> AttributeValue??
    {
        guard let field = attribute.field else { return .some(attribute.constant) }
        let value = record[field]
        if value == nil && !attribute.coercer.hasDefault { return nil }
        do {
            // An empty unquoted CSV field has no value (null, or the default); `""` is an empty string.
            if value?.isEmptyCSVField == true { return .some(try attribute.coercer.coerce(nil)) }
            return .some(try attribute.coercer.coerce(value))
        } catch {
            throw RecordError(
                position: value?.position ?? record.position, field: field.text, value: value?.string,
                message: error.reason)
        }
    }

    private func referenceKeys(
        _ value: FieldValue, coercers: [ValueCoercer], matchNames: [String], split: String?, field: String
    ) throws(RecordError) -> [KeyValue] {
        var keys: [KeyValue] = []
        // A single value (the common to-one) is read in place, without a list around it.
        if value.kind == .list {
            for item in value.elements {
                try appendKeys(
                    of: item, coercers: coercers, matchNames: matchNames, split: split, field: field, to: &keys)
            }
        } else {
            try appendKeys(of: value, coercers: coercers, matchNames: matchNames, split: split, field: field, to: &keys)
        }
        return keys
    }

    /// Adds the keys one value of a reference field names (several when `split`).
    private func appendKeys(
        of item: FieldValue, coercers: [ValueCoercer], matchNames: [String], split: String?, field: String,
        to keys: inout [KeyValue]
    ) throws(RecordError) {
        // A null or empty reference means "no destination".
        let kind = item.kind
        if kind == .null || (kind == .text && item.byteCount == 0) { return }
        if coercers.count > 1 {
            keys.append(try compositeKey(item, coercers: coercers, matchNames: matchNames, field: field))
            return
        }
        guard let coercer = coercers.first else { return }
        do {
            if let split {
                try splitKeys(item, separator: split, coercer: coercer, into: &keys)
            } else if let key = try coercer.coerce(item) {
                keys.append(.single(key))
            }
        } catch {
            throw RecordError(position: item.position, field: field, value: item.string, message: error.reason)
        }
    }

    /// Splits a field's text at `separator` and coerces each non-empty part, straight from the
    /// record's bytes when the separator is one byte (the common `;`).
    private func splitKeys(
        _ item: FieldValue, separator: String, coercer: ValueCoercer, into keys: inout [KeyValue]
    ) throws(CoercionError) {
        guard separator.utf8.count == 1, let byte = separator.utf8.first else {
            for part in item.string.split(separator: separator, omittingEmptySubsequences: true) {
                if let key = try coercer.coerce(text: String(part)) { keys.append(.single(key)) }
            }
            return
        }
        var failure: CoercionError?
        item.withUTF8 { bytes in
            var start = 0
            for end in 0...bytes.count where end == bytes.count || bytes[end] == byte {
                defer { start = end + 1 }
                guard end > start else { continue }
                do throws(CoercionError) {
                    if let key = try coercer.coerce(
                        utf8: UnsafeBufferPointer(rebasing: bytes[start..<end]), kind: .text)
                    {
                        keys.append(.single(key))
                    }
                } catch {
                    failure = error
                    return
                }
            }
        }
        if let failure { throw failure }
    }

    private func compositeKey(
        _ item: FieldValue, coercers: [ValueCoercer], matchNames: [String], field: String
    ) throws(RecordError) -> KeyValue {
        guard let record = item.record else {
            throw RecordError(
                position: item.position, field: field, value: item.string,
                message:
                    "a reference matching [\(matchNames.joined(separator: ", "))] needs an object with those fields")
        }
        var parts: [AttributeValue] = []
        for (name, coercer) in zip(matchNames, coercers) {
            let part = (try? record.value(at: name)) ?? nil
            let value: AttributeValue?
            do {
                value = try coercer.coerce(part)
            } catch {
                throw RecordError(
                    position: part?.position ?? item.position, field: "\(field).\(name)", value: part?.string,
                    message: error.reason)
            }
            guard let value else {
                throw RecordError(
                    position: item.position, field: "\(field).\(name)", message: "the reference has no \(name)")
            }
            parts.append(value)
        }
        return KeyValue(parts)
    }

    private func nestedRecords(_ value: FieldValue) -> [SourceRecord] {
        switch value.kind {
        case .list: value.elements.compactMap(\.record)
        case .null: []
        default: value.record.map { [$0] } ?? []
        }
    }

    private func fieldPosition(_ field: FieldPath?, in record: SourceRecord) -> SourcePosition {
        field.flatMap { record[$0]?.position } ?? record.position
    }
}
