// BinaryPropertyListWriter: writes a PropertyListValue as a bplist00 binary property list,
// deterministically — the same value gives the same bytes — so that stores whose metadata it
// writes stay byte-reproducible.
//
// Layout, as Core Foundation's writer lays it out: objects in depth-first order from the top
// object (a dictionary's keys, then its values), strings, integers, reals, dates, data and
// booleans written once and shared by every reference (containers and UIDs are never shared),
// integers, counts, references and offsets in the fewest bytes of 1, 2, 4 or 8 that hold them,
// negative integers in 8, reals as 8-byte doubles, strings as ASCII when they are, else UTF-16.
// Dictionary keys are sorted by code point unless the writer is told to keep their order.
// Where this differs from Apple's writer (which orders keys by hash): docs/PropertyLists.md.
import Foundation

/// Writes binary property lists (`bplist00`).
///
/// ```swift
/// let bytes = BinaryPropertyListWriter().write(["NSStoreType": "SQLite", "NSStoreModelVersionHashesVersion": 3])
/// ```
public struct BinaryPropertyListWriter: Sendable {
    /// The order in which a dictionary's keys are written.
    public enum KeyOrder: Sendable {
        /// Ascending Unicode code points (the default: independent of how the value was built).
        case codePoint
        /// The dictionary's own order.
        case asGiven
    }

    /// The order in which dictionary keys are written.
    public var keyOrder: KeyOrder

    /// A writer that orders dictionary keys by `keyOrder`.
    public init(keyOrder: KeyOrder = .codePoint) {
        self.keyOrder = keyOrder
    }

    /// The binary property list of `value`.
    public func write(_ value: PropertyListValue) -> Data {
        var objects = ObjectTable(keyOrder: keyOrder)
        _ = objects.add(value)
        return Data(objects.encoded())
    }
}

/// The objects of a property list in writing order, scalars shared.
private struct ObjectTable {
    /// One object to write: a scalar, or a container holding object indices.
    enum Object {
        case scalar(PropertyListValue)
        case array([Int])
        case dictionary(keys: [Int], values: [Int])
    }

    /// What makes two scalars the same object: kind and exact value.
    enum ScalarKey: Hashable {
        case string(ExactString)
        case integer(Int64)
        case real(UInt64)
        case boolean(Bool)
        case date(UInt64)
        case data(Data)
    }

    let keyOrder: BinaryPropertyListWriter.KeyOrder
    private(set) var objects: [Object] = []
    private var scalarIndex: [ScalarKey: Int] = [:]

    init(keyOrder: BinaryPropertyListWriter.KeyOrder) {
        self.keyOrder = keyOrder
    }

    /// Adds `value` and what it contains, depth first; returns its object index.
    mutating func add(_ value: PropertyListValue) -> Int {
        if let key = Self.scalarKey(value) {
            if let index = scalarIndex[key] { return index }
            scalarIndex[key] = objects.count
        }
        let index = objects.count
        objects.append(.scalar(value))
        switch value {
        case .array(let elements):
            objects[index] = .array(elements.map { add($0) })
        case .dictionary(let dictionary):
            let ordered = keyOrder == .codePoint ? dictionary.sortedByKey() : dictionary
            let keys = ordered.keys.map { add(.string($0)) }
            objects[index] = .dictionary(keys: keys, values: ordered.values.map { add($0) })
        default:
            break
        }
        return index
    }

    /// The key under which `value` is shared, or nil for containers and UIDs.
    private static func scalarKey(_ value: PropertyListValue) -> ScalarKey? {
        switch value {
        case .string(let string): .string(ExactString(string))
        case .integer(let integer): .integer(integer)
        case .real(let real): .real(real.bitPattern)
        case .boolean(let boolean): .boolean(boolean)
        case .date(let date): .date(date.timeIntervalSinceReferenceDate.bitPattern)
        case .data(let data): .data(data)
        case .array, .dictionary, .uid: nil
        }
    }

    /// The file: header, objects, offset table, trailer.
    func encoded() -> [UInt8] {
        let referenceSize = Self.byteWidth(UInt64(objects.count))
        var bytes = BinaryPropertyListTrailer.magic
        var offsets: [Int] = []
        offsets.reserveCapacity(objects.count)
        for object in objects {
            offsets.append(bytes.count)
            Self.append(object, referenceSize: referenceSize, to: &bytes)
        }
        let tableStart = bytes.count
        let offsetSize = Self.byteWidth(UInt64(tableStart))
        for offset in offsets { bytes += BigEndian.bytes(of: UInt64(offset), width: offsetSize) }
        bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        bytes += BigEndian.bytes(of: UInt64(objects.count), width: 8)
        bytes += BigEndian.bytes(of: 0, width: 8)
        bytes += BigEndian.bytes(of: UInt64(tableStart), width: 8)
        return bytes
    }

    private static func append(_ object: Object, referenceSize: Int, to bytes: inout [UInt8]) {
        switch object {
        case .array(let elements):
            appendHeader(0xA, count: elements.count, to: &bytes)
            for element in elements { bytes += BigEndian.bytes(of: UInt64(element), width: referenceSize) }
        case .dictionary(let keys, let values):
            appendHeader(0xD, count: keys.count, to: &bytes)
            for reference in keys + values { bytes += BigEndian.bytes(of: UInt64(reference), width: referenceSize) }
        case .scalar(let value):
            appendScalar(value, to: &bytes)
        }
    }

    private static func appendScalar(_ value: PropertyListValue, to bytes: inout [UInt8]) {
        switch value {
        case .boolean(let boolean):
            bytes.append(boolean ? 0x09 : 0x08)
        case .integer(let integer):
            appendInteger(integer < 0 ? UInt64(bitPattern: integer) : UInt64(integer), to: &bytes)
        case .real(let real):
            bytes.append(0x23)
            bytes += BigEndian.bytes(of: real.bitPattern, width: 8)
        case .date(let date):
            bytes.append(0x33)
            bytes += BigEndian.bytes(of: date.timeIntervalSinceReferenceDate.bitPattern, width: 8)
        case .data(let data):
            appendHeader(0x4, count: data.count, to: &bytes)
            bytes += data
        case .string(let string) where string.utf8.allSatisfy({ $0 < 0x80 }):
            appendHeader(0x5, count: string.utf8.count, to: &bytes)
            bytes += string.utf8
        case .string(let string):
            appendHeader(0x6, count: string.utf16.count, to: &bytes)
            for unit in string.utf16 { bytes += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        case .uid(let uid):
            let width = byteWidth(uid)
            bytes.append(0x80 | UInt8(width - 1))
            bytes += BigEndian.bytes(of: uid, width: width)
        case .array, .dictionary:
            break  // containers are Object.array and Object.dictionary
        }
    }

    /// An integer object in the fewest bytes (a negative one, given as its bit pattern, in 8).
    private static func appendInteger(_ value: UInt64, to bytes: inout [UInt8]) {
        let width = byteWidth(value)
        bytes.append(0x10 | UInt8(width.trailingZeroBitCount))
        bytes += BigEndian.bytes(of: value, width: width)
    }

    /// A marker with `kind` in its high nibble and the count in its low one, or 0xF and the count
    /// as an integer object when it is 15 or more.
    private static func appendHeader(_ kind: UInt8, count: Int, to bytes: inout [UInt8]) {
        if count < 15 {
            bytes.append(kind << 4 | UInt8(count))
        } else {
            bytes.append(kind << 4 | 0x0F)
            appendInteger(UInt64(count), to: &bytes)
        }
    }

    /// The fewest bytes of 1, 2, 4 or 8 that hold `value`.
    static func byteWidth(_ value: UInt64) -> Int {
        switch value {
        case ...0xFF: 1
        case ...0xFFFF: 2
        case ...0xFFFF_FFFF: 4
        default: 8
        }
    }
}
