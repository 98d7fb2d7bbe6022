// RawBinaryPropertyList: assembles a bplist00 file from hand-written object bytes, so that tests
// can craft what no writer produces (bad references, cycles, huge counts) and know the byte
// offset of every object, offset-table entry and trailer field.

/// A binary property list built from raw objects.
struct RawBinaryPropertyList {
    /// Each object's bytes, in file order.
    var objects: [[UInt8]]
    /// The top object's index.
    var top: UInt64 = 0
    /// The width of object references in the objects' bytes.
    var referenceSize: UInt8 = 1
    /// The width of offset-table entries.
    var offsetSize: UInt8 = 1
    /// The object count written in the trailer (default: the number of objects).
    var declaredCount: UInt64?
    /// The offset-table position written in the trailer (default: where the table is).
    var declaredTableStart: UInt64?
    /// Offset-table entries to write instead of the objects' real offsets, by object index.
    var offsetOverrides: [Int: UInt64] = [:]

    /// The offset of object `index`.
    func offset(of index: Int) -> Int { 8 + objects[..<index].reduce(0) { $0 + $1.count } }

    /// Where the offset table starts.
    var tableStart: Int { offset(of: objects.count) }

    /// Where the trailer starts.
    var trailerStart: Int { tableStart + objects.count * Int(offsetSize) }

    /// The file.
    var bytes: [UInt8] {
        var result = Array("bplist00".utf8)
        for object in objects { result += object }
        for index in objects.indices {
            result += Self.bigEndian(offsetOverrides[index] ?? UInt64(offset(of: index)), width: Int(offsetSize))
        }
        result += [0, 0, 0, 0, 0, 0, offsetSize, referenceSize]
        result += Self.bigEndian(declaredCount ?? UInt64(objects.count), width: 8)
        result += Self.bigEndian(top, width: 8)
        result += Self.bigEndian(declaredTableStart ?? UInt64(tableStart), width: 8)
        return result
    }

    /// `value` as `width` big-endian bytes.
    static func bigEndian(_ value: UInt64, width: Int) -> [UInt8] {
        (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(width - 1 - $0))) }
    }

    /// An ASCII string object.
    static func ascii(_ text: String) -> [UInt8] { [0x50 | UInt8(text.utf8.count)] + Array(text.utf8) }

    /// An array object of one-byte references.
    static func array(_ references: [UInt8]) -> [UInt8] { [0xA0 | UInt8(references.count)] + references }

    /// A dictionary object of one-byte references.
    static func dictionary(keys: [UInt8], values: [UInt8]) -> [UInt8] { [0xD0 | UInt8(keys.count)] + keys + values }
}
