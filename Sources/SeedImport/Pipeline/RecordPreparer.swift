// The mapping stage: evaluates every mapped field of a record and coerces it into the batch's
// flat buffers (PreparedBatch) — attribute values, the key with its canonical bytes and hash,
// the keys of references, nested records — collecting the first problem as a RecordError with
// the field's exact position. A top-level record's fields are found in one pass over its
// children (its mapping's FieldLookup), a nested record's path by path. Text is copied from the
// record's bytes into the batch's arena; no string, no array and no reference-counted value is
// made per field.
// A mapping with `entityField` hands each record to the mapping of the entity it names
// (EntityRoutes); a run identity key (`key: [object-id]`) is read as text into the entry's key.
// Invariants: preparing never touches the context or the store; a record that fails leaves
// nothing in the batch but its error.
import GraphStore
import RecordReaders

/// Prepares records into batches.
struct RecordPreparer {
    /// The fields of the last top-level record, found in one pass (reused from record to record).
    private var matches = FieldMatches()

    /// Prepares the top-level `record` for `mapping` into `batch`: its entry, or its error.
    mutating func prepare(_ record: SourceRecord, mapping: CompiledMapping, into batch: inout PreparedBatch) {
        let mark = batch.mark
        batch.records.append(record)
        do {
            let target = try RecordFields.mapping(mapping, for: record)
            matches.find(target.fieldLookup, in: record)
            let fields = RecordFields(record: record, mapping: target, found: matches)
            batch.recordEntries.append(try prepare(fields, in: &batch))
        } catch {
            batch.cut(to: mark)
            batch.failures[batch.records.count - 1] = error
            batch.recordEntries.append(-1)
        }
    }

    /// Prepares a nested `record` for `mapping` and returns its entry's position.
    private func prepare(_ record: SourceRecord, mapping: CompiledMapping, in batch: inout PreparedBatch)
        throws(RecordError) -> Int32
    {
        let target = try RecordFields.mapping(mapping, for: record)
        return try prepare(RecordFields(record: record, mapping: target, found: nil), in: &batch)
    }

    /// Prepares the record of `fields` and returns its entry's position.
    private func prepare(_ fields: RecordFields, in batch: inout PreparedBatch) throws(RecordError) -> Int32 {
        let record = fields.record
        let mapping = fields.mapping
        let entryIndex = Int32(batch.entries.count)
        let firstValue = batch.values.count
        batch.entries.append(
            PreparedEntry(
                mapping: Int32(mapping.number), values: Int32(firstValue), key: -1, firstReference: 0,
                referenceCount: 0, firstGroup: 0, groupCount: 0, place: record.place))
        batch.values.append(contentsOf: repeatElement(FlatValue.absent, count: mapping.attributes.count))
        // Key attributes first, so a missing key is the error a record reports — unless the key
        // comes from the model (such a record is inserted) or is a unique constraint guarding a
        // keyless mapping (which allows nulls, as the store's index does): such a record has no key.
        var hasKey = !mapping.keyPositions.isEmpty || !mapping.keyRelationships.isEmpty
        for position in mapping.keyPositions {
            let attribute = mapping.attributes[position]
            let start = mapping.attributeFields[position]
            if mapping.keyIsOptional || mapping.keyIsUniqueConstraint {
                let value = try coerce(attribute, at: start, of: fields, into: &batch)
                if value.isNil { hasKey = false }
                batch.values[firstValue + position] = value
            } else {
                batch.values[firstValue + position] = try keyPart(attribute, at: start, of: fields, into: &batch)
            }
        }
        if let identity = mapping.identityKey {
            let identityPart = try keyPart(identity, at: mapping.identityFields, of: fields, into: &batch)
            batch.entries[Int(entryIndex)].key = batch.append(key: CollectionOfOne(identityPart))
        }
        for (position, attribute) in mapping.attributes.enumerated() where !mapping.isKeyPosition(position) {
            batch.values[firstValue + position] = try coerce(
                attribute, at: mapping.attributeFields[position], of: fields, into: &batch)
        }
        if hasKey && mapping.keyRelationships.isEmpty {
            let positions = mapping.keyPositions
            batch.entries[Int(entryIndex)].key =
                positions.count == 1
                ? batch.append(key: CollectionOfOne(batch.values[firstValue + positions[0]]))
                : batch.append(key: positions.map { batch.values[firstValue + $0] })
        }
        // A record's references are contiguous in the batch: appended there as they come, unless
        // records nested in it (which append their own) may come between them.
        let firstReference = batch.references.count
        var heldReferences: [FlatReference] = []
        var groups: [NestedGroup] = []
        for (position, relationship) in mapping.relationships.enumerated() {
            guard let value = fields.value(relationship.fields, at: mapping.relationshipFields[position]) else {
                continue
            }
            guard let reading = relationship.keyReading else {
                guard case .nested(let nestedMapping) = relationship.source else { continue }
                let records = nestedRecords(value)
                groups.append(
                    try group(
                        records, mappings: records.map { _ in nestedMapping }, of: relationship, owner: mapping,
                        value: value, in: &batch))
                continue
            }
            if let nesting = relationship.dataNesting, let records = dataRecords(value) {
                let mappings = try records.map { nestedRecord throws(RecordError) in
                    guard let nestedMapping = nesting.mapping(for: nestedRecord) else {
                        throw RecordError(
                            position: nestedRecord.position, field: relationship.field.text,
                            message: "the nested record names no entity that \(mapping.entity.name)."
                                + "\(relationship.relationship.name) can hold")
                    }
                    return nestedMapping
                }
                groups.append(
                    try group(
                        records, mappings: mappings, of: relationship, owner: mapping, value: value, in: &batch))
                continue
            }
            if value.kind == .null && relationship.relationship.isToMany {
                // JSON null empties a to-many (a to-one is cleared by a reference without keys).
                groups.append(
                    try group([], mappings: [], of: relationship, owner: mapping, value: value, in: &batch))
                continue
            }
            let firstKey = Int32(batch.keys.count)
            try appendKeys(value, reading: reading, field: relationship.field.text, to: &batch)
            let count = Int32(batch.keys.count) - firstKey
            if !relationship.relationship.isToMany && count > 1 {
                throw RecordError(
                    position: value.position, field: relationship.field.text,
                    message:
                        "\(mapping.entity.name).\(relationship.relationship.name) is a to-one relationship but the field holds \(count) keys"
                )
            }
            let reference = FlatReference(
                relationship: Int32(relationship.number), firstKey: firstKey, keyCount: count, place: value.place)
            if mapping.nestsRecords {
                heldReferences.append(reference)
            } else {
                batch.references.append(reference)
            }
        }
        let references = mapping.nestsRecords ? batch.references.count : firstReference
        batch.references.append(contentsOf: heldReferences)
        batch.entries[Int(entryIndex)].firstReference = Int32(references)
        batch.entries[Int(entryIndex)].referenceCount = Int32(batch.references.count - references)
        if hasKey && !mapping.keyRelationships.isEmpty {
            batch.entries[Int(entryIndex)].key = try keyThroughReferences(
                of: fields, values: firstValue, references: references..<batch.references.count, in: &batch)
        }
        batch.entries[Int(entryIndex)].firstGroup = Int32(batch.groups.count)
        batch.entries[Int(entryIndex)].groupCount = Int32(groups.count)
        batch.groups.append(contentsOf: groups)
        return entryIndex
    }

    // MARK: - Values

    /// The value of the key attribute `attribute` (or the run identity), whose paths start at
    /// `start` in the mapping's lookup, for the record of `fields`.
    private func keyPart(
        _ attribute: CompiledAttribute, at start: Int, of fields: RecordFields, into batch: inout PreparedBatch
    ) throws(RecordError) -> FlatValue {
        let value = try coerce(attribute, at: start, of: fields, into: &batch)
        guard !value.isNil else {
            throw RecordError(
                position: fields.position(attribute.fields, at: start),
                field: attribute.field?.text ?? attribute.name,
                message: "the key attribute \(fields.mapping.entity.name).\(attribute.name) has no value")
        }
        return value
    }

    /// The key of a record whose key names relationships: its key attributes' values, then the
    /// destination key of each key relationship's reference (`references`: the record's, in the batch).
    private func keyThroughReferences(
        of fields: RecordFields, values firstValue: Int, references: Range<Int>, in batch: inout PreparedBatch
    ) throws(RecordError) -> Int32 {
        let mapping = fields.mapping
        var parts = mapping.keyPositions.map { batch.values[firstValue + $0] }
        for position in mapping.keyRelationships {
            let relationship = mapping.relationships[position]
            guard
                let reference = batch.references[references].first(where: {
                    $0.relationship == Int32(relationship.number)
                }),
                reference.keyCount == 1
            else {
                throw RecordError(
                    position: fields.position(relationship.fields, at: mapping.relationshipFields[position]),
                    field: relationship.field.text,
                    message:
                        "the key relationship \(mapping.entity.name).\(relationship.relationship.name) has no value")
            }
            parts.append(contentsOf: batch.parts(of: batch.keys[Int(reference.firstKey)]))
        }
        return batch.append(key: parts)
    }

    /// The value of `attribute`, whose paths start at `start` in the mapping's lookup, for the
    /// record of `fields`: `.absent` to leave the attribute alone (its field is absent and it has
    /// no default).
    private func coerce(
        _ attribute: CompiledAttribute, at start: Int, of fields: RecordFields, into batch: inout PreparedBatch
    ) throws(RecordError) -> FlatValue {
        guard !attribute.fields.isEmpty else { return batch.flat(attribute.constant) }
        guard let value = fields.value(attribute.fields, at: start) else {
            return attribute.coercer.hasDefault ? batch.flat(attribute.coercer.defaultValue) : .absent
        }
        do throws(CoercionError) {
            // An empty unquoted CSV field has no value (null, or the default); `""` is an empty string.
            if value.isEmptyCSVField { return batch.flat(try attribute.coercer.coerce(nil)) }
            let kind = value.kind
            if kind == .list { return batch.flat(try attribute.coercer.coerce(value)) }
            let coerced = value.withUTF8 { bytes in
                Result { () throws(CoercionError) in try attribute.coercer.coerceInPlace(utf8: bytes, kind: kind) }
                    .map { flat($0, coercer: attribute.coercer, in: &batch) }
            }
            return try coerced.get()
        } catch {
            throw RecordError(
                position: value.position, field: attribute.fields[0].text, value: value.string, message: error.reason)
        }
    }

    /// What a coercion in place gave, in the batch.
    private func flat(_ coerced: ValueCoercer.InPlace, coercer: ValueCoercer, in batch: inout PreparedBatch)
        -> FlatValue
    {
        switch coerced {
        case .defaultValue: batch.flat(coercer.defaultValue)
        case .text(let bytes): batch.append(text: bytes)
        case .value(let value): batch.flat(value)
        }
    }

    // MARK: - Keys

    /// Adds the keys a reference field names (a single value is read in place, without a list).
    private func appendKeys(
        _ value: FieldValue, reading: KeyReading, field: @autoclosure () -> String,
        to batch: inout PreparedBatch
    ) throws(RecordError) {
        if value.kind == .list {
            try value.forEachElement { item throws(RecordError) in
                try appendKeys(
                    of: item, reading: reading, field: field(), to: &batch)
            }
        } else {
            try appendKeys(
                of: value, reading: reading, field: field(), to: &batch)
        }
    }

    /// Adds the keys one value of a reference field names (several when `split`).
    private func appendKeys(
        of item: FieldValue, reading: KeyReading, field: @autoclosure () -> String,
        to batch: inout PreparedBatch
    ) throws(RecordError) {
        // A null or empty reference means "no destination".
        let kind = item.kind
        if kind == .null || (kind == .text && item.byteCount == 0) { return }
        if reading.coercers.count > 1 {
            let parts = try compositeKey(
                item, coercers: reading.coercers, matchNames: reading.matchNames, field: field(), in: &batch)
            batch.append(key: parts)
            return
        }
        guard let coercer = reading.coercers.first else { return }
        do throws(CoercionError) {
            if kind == .list { _ = try coercer.coerce(item) }
            try item.withUTF8 { bytes in
                Result { () throws(CoercionError) in
                    switch reading.split {
                    case .separator(let separator):
                        try splitKeys(bytes, kind: kind, separator: separator, coercer: coercer, to: &batch)
                    case .pattern(let prefix, let suffix):
                        try patternKeys(bytes, prefix: prefix, suffix: suffix, coercer: coercer, to: &batch)
                    case nil:
                        let part = flat(
                            try coercer.coerceInPlace(utf8: bytes, kind: kind), coercer: coercer, in: &batch)
                        if !part.isNil { batch.append(key: CollectionOfOne(part)) }
                    }
                }
            }.get()
        } catch {
            throw RecordError(position: item.position, field: field(), value: item.string, message: error.reason)
        }
    }

    /// Splits a field's text at `separator` and adds a key for each non-empty part.
    private func splitKeys(
        _ bytes: UnsafeBufferPointer<UInt8>, kind: ValueKind, separator separatorBytes: [UInt8],
        coercer: ValueCoercer, to batch: inout PreparedBatch
    ) throws(CoercionError) {
        let first = separatorBytes.first ?? 0
        var start = 0
        var index = 0
        while index <= bytes.count {
            let atSeparator =
                index < bytes.count && bytes[index] == first && separatorBytes.count <= bytes.count - index
                && (separatorBytes.count == 1
                    || separatorBytes.indices.allSatisfy { bytes[index + $0] == separatorBytes[$0] })
            guard index == bytes.count || atSeparator else {
                index += 1
                continue
            }
            if index > start {
                let part = UnsafeBufferPointer(rebasing: bytes[start..<index])
                let value = flat(try coercer.coerceInPlace(utf8: part, kind: .text), coercer: coercer, in: &batch)
                if !value.isNil { batch.append(key: CollectionOfOne(value)) }
            }
            index += max(1, separatorBytes.count)
            start = index
        }
    }

    /// Adds a key for each non-empty text between `prefix` and the next `suffix` (`<a><b>` with
    /// `<` and `>`); text outside them is skipped. An empty prefix starts a key where the last
    /// ended; an empty suffix ends it at the next prefix.
    private func patternKeys(
        _ bytes: UnsafeBufferPointer<UInt8>, prefix: [UInt8], suffix: [UInt8], coercer: ValueCoercer,
        to batch: inout PreparedBatch
    ) throws(CoercionError) {
        var index = 0
        while index < bytes.count {
            guard let start = Self.find(prefix, in: bytes, from: index).map({ $0 + prefix.count }) else { return }
            let end =
                suffix.isEmpty
                ? (Self.find(prefix, in: bytes, from: start) ?? bytes.count)
                : (Self.find(suffix, in: bytes, from: start) ?? bytes.count)
            if end > start {
                let part = UnsafeBufferPointer(rebasing: bytes[start..<end])
                let value = flat(try coercer.coerceInPlace(utf8: part, kind: .text), coercer: coercer, in: &batch)
                if !value.isNil { batch.append(key: CollectionOfOne(value)) }
            }
            index = max(end + suffix.count, start + 1)
        }
    }

    /// Where `needle` first occurs in `bytes` at or after `from` (`from` itself for an empty needle).
    private static func find(_ needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        guard !needle.isEmpty else { return from }
        var index = from
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0] && needle.indices.allSatisfy({ bytes[index + $0] == needle[$0] }) {
                return index
            }
            index += 1
        }
        return nil
    }

    private func compositeKey(
        _ item: FieldValue, coercers: [ValueCoercer], matchNames: [String], field: String,
        in batch: inout PreparedBatch
    ) throws(RecordError) -> [FlatValue] {
        guard let record = item.record else {
            throw RecordError(
                position: item.position, field: field, value: item.string,
                message:
                    "a reference matching [\(matchNames.joined(separator: ", "))] needs an object with those fields")
        }
        var parts: [FlatValue] = []
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
            parts.append(batch.flat(value))
        }
        return parts
    }

    /// The group of `records` nested under `relationship` (each prepared for its mapping); an
    /// empty group for JSON null on a to-many empties it.
    private func group(
        _ records: [SourceRecord], mappings: [CompiledMapping], of relationship: CompiledRelationship,
        owner: CompiledMapping, value: FieldValue, in batch: inout PreparedBatch
    ) throws(RecordError) -> NestedGroup {
        if !relationship.relationship.isToMany && records.count > 1 {
            throw RecordError(
                position: value.position, field: relationship.field.text,
                message:
                    "\(owner.entity.name).\(relationship.relationship.name) is a to-one relationship but the field holds \(records.count) records"
            )
        }
        var children: [Int32] = []
        for (nestedRecord, nestedMapping) in zip(records, mappings) {
            children.append(try prepare(nestedRecord, mapping: nestedMapping, in: &batch))
        }
        defer { batch.children.append(contentsOf: children) }
        return NestedGroup(
            relationship: Int32(relationship.number), firstChild: Int32(batch.children.count),
            childCount: Int32(children.count), empties: value.kind == .null && relationship.relationship.isToMany)
    }

    /// The records a reference field holds instead of keys: a JSON object (an XML element with
    /// children or attributes but no text of its own), or a list of them; nil for keys.
    private func dataRecords(_ value: FieldValue) -> [SourceRecord]? {
        switch value.kind {
        case .record: isRecordOnly(value) ? value.record.map { [$0] } : nil
        case .list:
            !value.elements.isEmpty && value.elements.allSatisfy(isRecordOnly)
                ? value.elements.compactMap(\.record) : nil
        default: nil
        }
    }

    /// Whether `value` is a record without text of its own (`<unit code="kg">kg</unit>` is a key).
    private func isRecordOnly(_ value: FieldValue) -> Bool {
        value.kind == .record && value.withUTF8 { WhiteSpace.trimming($0).isEmpty }
    }

    private func nestedRecords(_ value: FieldValue) -> [SourceRecord] {
        switch value.kind {
        case .list: value.elements.compactMap(\.record)
        case .null: []
        default: value.record.map { [$0] } ?? []
        }
    }
}

/// A record and where its fields are read: through its mapping's lookup, all found in one pass
/// (a top-level record), or path by path (a nested record).
private struct RecordFields {
    let record: SourceRecord
    let mapping: CompiledMapping
    let found: FieldMatches?

    /// The mapping that prepares `record` for `mapping`: itself, or with `entityField` the
    /// mapping of the entity the record names (which prepares it instead).
    static func mapping(_ mapping: CompiledMapping, for record: SourceRecord) throws(RecordError) -> CompiledMapping {
        try mapping.routes?.mapping(for: record) ?? mapping
    }

    /// The value of the first of `paths` the record has; they start at `start` in the mapping's lookup.
    func value(_ paths: [FieldPath], at start: Int) -> FieldValue? {
        guard let found else { return record[first: paths] }
        return found.first(start..<start + paths.count, of: mapping.fieldLookup, in: record)
    }

    /// Where the value of `paths` (see ``value(_:at:)``) starts, or the record when it has none.
    func position(_ paths: [FieldPath], at start: Int) -> SourcePosition {
        value(paths, at: start)?.position ?? record.position
    }
}
