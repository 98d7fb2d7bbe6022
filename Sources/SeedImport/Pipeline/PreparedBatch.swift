// A batch of records prepared for their mappings, in flat buffers: what the reader thread hands
// the writing thread. Every value is a 16-byte `FlatValue` (numbers and dates inline, text as a
// range of the batch's byte arena, the rare other kinds boxed), entries, keys and references
// are plain structs of numbers and ranges, and mappings are named by their numbers
// (PlanMappings) — so handing a batch over, reading it and recycling it costs a few buffer
// moves, never a reference count per record or per value.
// Layout: `entries` in pre-order (a record, then the records nested in it); an entry's values
// are `values[entry.values ..< entry.values + attribute count]`, one per mapped attribute in
// the mapping's order (`.absent` when the record leaves the attribute alone); keys hold their
// parts, their canonical bytes (KeyEncoding) and the hash of those.
// Invariant: a record that fails to prepare leaves nothing in the buffers (they are cut back to
// where it started) but its error.
import Foundation
import GraphStore
import RecordReaders

/// One value of a prepared record or key.
struct FlatValue: Sendable, Equatable {
    /// What `bits` hold.
    enum Kind: UInt8, Sendable {
        /// No value: the record leaves the attribute alone.
        case absent
        /// The null value.
        case null
        /// An `Int64`.
        case integer
        /// A `Double`'s bits.
        case double
        /// 0 or 1.
        case boolean
        /// A date's `timeIntervalSinceReferenceDate` bits (as `Date` keeps it).
        case date
        /// Text: the offset in the batch's arena (high 32 bits) and the length (low 32 bits).
        case text
        /// A value of the batch's `boxed` list, by position.
        case boxed
        /// A value of the run's constants (defaults), by position.
        case constant
    }

    var kind: Kind
    var bits: UInt64

    static let absent = FlatValue(kind: .absent, bits: 0)
    static let null = FlatValue(kind: .null, bits: 0)

    /// Whether the value is no value at all (null or absent).
    var isNil: Bool { kind == .null || kind == .absent }

    /// A text range of an arena.
    static func text(offset: Int, length: Int) -> FlatValue {
        FlatValue(kind: .text, bits: UInt64(offset) << 32 | UInt64(length))
    }

    /// The arena range of a text value.
    var textRange: Range<Int> {
        let start = Int(bits >> 32)
        return start..<start + Int(bits & 0xFFFF_FFFF)
    }

    /// `value` inline when it is a number, Boolean or date; nil for the kinds kept boxed.
    static func inline(_ value: AttributeValue) -> FlatValue? {
        switch value {
        case .integer(let integer): FlatValue(kind: .integer, bits: UInt64(bitPattern: integer))
        case .double(let double): FlatValue(kind: .double, bits: double.bitPattern)
        case .boolean(let bool): FlatValue(kind: .boolean, bits: bool ? 1 : 0)
        case .date(let date): FlatValue(kind: .date, bits: date.timeIntervalSinceReferenceDate.bitPattern)
        case .string, .decimal, .binary, .uuid, .uri: nil
        }
    }
}

/// A prepared record (top-level or nested).
struct PreparedEntry: Sendable {
    /// Its mapping's number.
    var mapping: Int32
    /// Its first value; there is one per attribute of the mapping.
    var values: Int32
    /// Its key, or -1.
    var key: Int32
    /// Its references: `references[first ..< first + count]`.
    var firstReference: Int32
    var referenceCount: Int32
    /// Its nested relationships: `groups[first ..< first + count]`.
    var firstGroup: Int32
    var groupCount: Int32
    /// Where the record starts.
    var place: SourcePlace
}

/// A key: its parts, its canonical bytes and their hash.
struct PreparedKey: Sendable {
    var hash: UInt64
    /// `keyParts[firstPart ..< firstPart + partCount]`.
    var firstPart: Int32
    var partCount: Int32
    /// `keyBytes[firstByte ..< firstByte + byteCount]`.
    var firstByte: Int32
    var byteCount: Int32
}

/// The keys of one relationship of one record.
struct FlatReference: Sendable {
    /// The relationship mapping's number.
    var relationship: Int32
    /// `keys[firstKey ..< firstKey + keyCount]`, in source order (none: no destination).
    var firstKey: Int32
    var keyCount: Int32
    /// Where the field is.
    var place: SourcePlace
}

/// The records nested in one relationship of one record.
struct NestedGroup: Sendable {
    /// The relationship mapping's number.
    var relationship: Int32
    /// `children[first ..< first + count]`: entry positions, in source order.
    var firstChild: Int32
    var childCount: Int32
    /// Whether the group replaces the members of a to-many whatever its members policy (JSON
    /// null under a to-many: empties it).
    var empties = false
}

/// A batch of prepared records.
struct PreparedBatch: Sendable {
    /// The top-level records, in order.
    var records: [SourceRecord] = []
    /// The entry of each top-level record, or -1 when it did not prepare (see `failures`).
    var recordEntries: [Int32] = []
    /// Why records did not prepare, by position in `records`.
    var failures: [Int: RecordError] = [:]
    /// Broken records the reader skipped (they have no fields), each with the position in
    /// `records` of the record that came after it.
    var broken: [(before: Int, error: RecordError)] = []
    var entries: [PreparedEntry] = []
    var values: [FlatValue] = []
    var keys: [PreparedKey] = []
    var keyParts: [FlatValue] = []
    var keyBytes: [UInt8] = []
    var references: [FlatReference] = []
    var groups: [NestedGroup] = []
    var children: [Int32] = []
    /// The bytes of the batch's text values.
    var text: [UInt8] = []
    /// Values kept whole (decimals, UUIDs, data, URIs).
    var boxed: [AttributeValue] = []
    /// The records made whole for the object path, by position in `records` (nil: did not
    /// prepare), when the reader made them (empty otherwise).
    var objects: [PreparedObject?] = []
    /// The reader's progress after the batch.
    var bytesConsumed = 0

    /// How many records the reader read into the batch, broken ones included.
    var readCount: Int { records.count + broken.count }

    /// Keys a batch of `batchSize` records holds at most, references included: five per record
    /// (a key and four references) — records that name many keys each (a list of twenty items)
    /// make smaller batches rather than larger buffers.
    static func keyLimit(batchSize: Int) -> Int { batchSize * 5 }

    /// Whether the batch is complete: `batchSize` records read, or its records' keys at the
    /// limit (``keyLimit(batchSize:)``).
    func isFull(batchSize: Int) -> Bool {
        readCount >= batchSize || keys.count >= Self.keyLimit(batchSize: batchSize)
    }

    /// Empties the batch, keeping its buffers.
    mutating func removeAll() {
        records.removeAll(keepingCapacity: true)
        recordEntries.removeAll(keepingCapacity: true)
        failures.removeAll(keepingCapacity: true)
        broken.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        keyParts.removeAll(keepingCapacity: true)
        keyBytes.removeAll(keepingCapacity: true)
        references.removeAll(keepingCapacity: true)
        groups.removeAll(keepingCapacity: true)
        children.removeAll(keepingCapacity: true)
        text.removeAll(keepingCapacity: true)
        boxed.removeAll(keepingCapacity: true)
        objects.removeAll(keepingCapacity: true)
        bytesConsumed = 0
    }

    /// The sizes of the buffers, to cut them back to.
    struct Mark {
        let entries, values, keys, keyParts, keyBytes, references, groups, children, text, boxed: Int
    }

    /// Where the buffers end now.
    var mark: Mark {
        Mark(
            entries: entries.count, values: values.count, keys: keys.count, keyParts: keyParts.count,
            keyBytes: keyBytes.count, references: references.count, groups: groups.count, children: children.count,
            text: text.count, boxed: boxed.count)
    }

    /// Cuts the buffers back to `mark` (a record that failed leaves nothing behind).
    mutating func cut(to mark: Mark) {
        entries.removeSubrange(mark.entries...)
        values.removeSubrange(mark.values...)
        keys.removeSubrange(mark.keys...)
        keyParts.removeSubrange(mark.keyParts...)
        keyBytes.removeSubrange(mark.keyBytes...)
        references.removeSubrange(mark.references...)
        groups.removeSubrange(mark.groups...)
        children.removeSubrange(mark.children...)
        text.removeSubrange(mark.text...)
        boxed.removeSubrange(mark.boxed...)
    }

    /// Adds a key of `parts` (with its canonical bytes and hash) and returns its position
    /// (a single part as `CollectionOfOne`, which costs no array).
    @discardableResult
    mutating func append<Parts: Collection<FlatValue>>(key parts: Parts) -> Int32 {
        let firstByte = keyBytes.count
        for part in parts { KeyEncoding.append(part, text: text, boxed: boxed, to: &keyBytes) }
        let hash = keyBytes.withUnsafeBytes { KeyEncoding.hash(UnsafeRawBufferPointer(rebasing: $0[firstByte...])) }
        keys.append(
            PreparedKey(
                hash: hash, firstPart: Int32(keyParts.count), partCount: Int32(parts.count),
                firstByte: Int32(firstByte),
                byteCount: Int32(keyBytes.count - firstByte)))
        keyParts.append(contentsOf: parts)
        return Int32(keys.count - 1)
    }

    /// Adds a key of attribute values `parts`.
    mutating func append(key parts: [AttributeValue]) {
        append(key: parts.map { flat($0) })
    }

    /// `value` in the batch: nil as null, scalars inline, text copied into the arena, others boxed.
    mutating func flat(_ value: AttributeValue?) -> FlatValue {
        guard let value else { return .null }
        if let inline = FlatValue.inline(value) { return inline }
        if case .string(var string) = value {
            return string.withUTF8 { append(text: $0) }
        }
        boxed.append(value)
        return FlatValue(kind: .boxed, bits: UInt64(boxed.count - 1))
    }

    /// `bytes` copied into the arena.
    mutating func append(text bytes: UnsafeBufferPointer<UInt8>) -> FlatValue {
        let offset = text.count
        text.append(contentsOf: bytes)
        return .text(offset: offset, length: bytes.count)
    }

    // MARK: - Reading

    /// The parts of `key`.
    func parts(of key: PreparedKey) -> ArraySlice<FlatValue> {
        keyParts[Int(key.firstPart)..<Int(key.firstPart + key.partCount)]
    }

    /// `value` as an attribute value (nil for null; absent values have none either).
    func attributeValue(_ value: FlatValue, constants: [AttributeValue]) -> AttributeValue? {
        switch value.kind {
        case .absent, .null: nil
        case .integer: .integer(Int64(bitPattern: value.bits))
        case .double: .double(Double(bitPattern: value.bits))
        case .boolean: .boolean(value.bits != 0)
        case .date: .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: value.bits)))
        case .text: .string(String(decoding: text[value.textRange], as: UTF8.self))
        case .boxed: boxed[Int(value.bits)]
        case .constant: constants[Int(value.bits)]
        }
    }

    /// `key` as a ``KeyValue``.
    func keyValue(_ key: PreparedKey) -> KeyValue {
        KeyValue(parts(of: key).map { attributeValue($0, constants: []) ?? .string("") })
    }
}
