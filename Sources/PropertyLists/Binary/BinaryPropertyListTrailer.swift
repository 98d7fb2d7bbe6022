// BinaryPropertyListTrailer: the last 32 bytes of a bplist00 file — offset and reference sizes,
// object count, top object, offset-table position — read and checked against the file and the
// limits, plus the offset table it locates, each entry checked to point into the object area.
//
// Layout: "bplist00" header, objects, offset table (objectCount entries of offsetSize bytes,
// big-endian), trailer (5 unused bytes, sort version, offsetSize, referenceSize, then objectCount,
// topObject and offsetTableStart as big-endian 64-bit integers).

/// The checked trailer and offset table of a binary property list.
struct BinaryPropertyListTrailer {
    /// The header every bplist00 file starts with.
    static let magic: [UInt8] = Array("bplist00".utf8)
    /// The trailer's size in bytes.
    static let size = 32

    /// The byte width of an object reference.
    let referenceSize: Int
    /// How many objects the file holds.
    let objectCount: Int
    /// The index of the top object.
    let topObject: Int
    /// Where the offset table starts, which is where the object area ends.
    let objectAreaEnd: Int
    /// Each object's offset, checked to lie in the object area.
    let offsets: [Int]

    /// Reads and checks the trailer and offset table of `bytes`.
    init(_ bytes: [UInt8], limits: PropertyListLimits) throws(PropertyListError) {
        let minimum = Self.magic.count + 1 + 1 + Self.size
        guard bytes.count >= Self.magic.count, bytes.starts(with: Self.magic) else {
            throw PropertyListError(.notAPropertyList, at: .byte(0))
        }
        guard bytes.count >= minimum else {
            throw PropertyListError(
                .truncated("the trailer (\(bytes.count) bytes, at least \(minimum) needed)"), at: .byte(bytes.count))
        }
        let trailer = bytes.count - Self.size
        let offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        let declaredCount = BigEndian.unsigned(bytes, at: trailer + 8, width: 8)
        let declaredTop = BigEndian.unsigned(bytes, at: trailer + 16, width: 8)
        let tableStart = BigEndian.unsigned(bytes, at: trailer + 24, width: 8)

        guard (1...8).contains(offsetSize) else {
            throw PropertyListError(.invalidTrailer("offset size \(offsetSize) (1 to 8)"), at: .byte(trailer + 6))
        }
        guard (1...8).contains(referenceSize) else {
            throw PropertyListError(.invalidTrailer("reference size \(referenceSize) (1 to 8)"), at: .byte(trailer + 7))
        }
        guard declaredCount >= 1 else {
            throw PropertyListError(.invalidTrailer("no objects"), at: .byte(trailer + 8))
        }
        guard declaredCount <= UInt64(limits.maxObjects) else {
            throw PropertyListError(
                .tooManyObjects(count: declaredCount, limit: limits.maxObjects), at: .byte(trailer + 8))
        }
        objectCount = Int(declaredCount)
        guard referenceSize == 8 || declaredCount < UInt64(1) << (8 * referenceSize) else {
            throw PropertyListError(
                .invalidTrailer("\(referenceSize)-byte references cannot name \(declaredCount) objects"),
                at: .byte(trailer + 7))
        }
        guard declaredTop < declaredCount else {
            throw PropertyListError(
                .invalidTrailer("top object \(declaredTop) of \(declaredCount) objects"), at: .byte(trailer + 16))
        }
        topObject = Int(declaredTop)
        // The table must start after the header and one object, and end at the trailer or before.
        let tableSize = UInt64(objectCount * offsetSize)
        guard tableStart > UInt64(Self.magic.count), tableStart <= UInt64(trailer),
            UInt64(trailer) - tableStart >= tableSize
        else {
            throw PropertyListError(
                .invalidTrailer("offset table at \(tableStart) with \(objectCount) entries of \(offsetSize) bytes"),
                at: .byte(trailer + 24))
        }
        objectAreaEnd = Int(tableStart)
        offsets = try (0..<objectCount).map { index throws(PropertyListError) in
            let entry = Int(tableStart) + index * offsetSize
            let offset = BigEndian.unsigned(bytes, at: entry, width: offsetSize)
            guard offset >= UInt64(Self.magic.count), offset < tableStart else {
                throw PropertyListError(.offsetOutOfRange(offset), at: .byte(entry))
            }
            return Int(offset)
        }
    }
}

/// Big-endian unsigned integers from a byte array.
enum BigEndian {
    /// The `width`-byte (at most 8) big-endian unsigned integer at `offset`; the caller has
    /// checked that the bytes exist.
    static func unsigned(_ bytes: [UInt8], at offset: Int, width: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<offset + width { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    /// `value` as `width` big-endian bytes (the low ones).
    static func bytes(of value: UInt64, width: Int) -> [UInt8] {
        (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(width - 1 - $0))) }
    }
}
