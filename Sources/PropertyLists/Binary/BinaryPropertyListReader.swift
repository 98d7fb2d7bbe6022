// BinaryPropertyListReader: reads a bplist00 binary property list (Core Data's metadata, keyed
// archives) into a PropertyListValue, for untrusted input.
//
// Every object type is read: booleans, integers of 1, 2, 4, 8 and 16 bytes, 4- and 8-byte reals,
// dates, data, ASCII and UTF-16 strings, UIDs, arrays and dictionaries (null, fill and set
// objects are refused: property lists do not hold them).
// Invariants: every read is checked against the object area before it happens, so the reader
// never traps; counts are checked against the bytes left, so no allocation exceeds the input;
// each object is decoded once (a shared object is reused) and each use is counted against
// maxValues, so time and memory stay proportional to the input; an object reached again while
// it is being decoded is a cycle; depth is checked on every step. Errors carry the byte offset of
// the object, reference or trailer field at fault.
import Foundation

/// Reads binary property lists (`bplist00`).
///
/// ```swift
/// let metadata = try BinaryPropertyListReader().read(blob)
/// metadata["NSStoreModelVersionHashes"]?["Item"]?.dataValue?.count   // 32
/// ```
public struct BinaryPropertyListReader: Sendable {
    /// The bounds the input must stay within.
    public var limits: PropertyListLimits

    /// A reader with `limits`.
    public init(limits: PropertyListLimits = PropertyListLimits()) {
        self.limits = limits
    }

    /// Whether `bytes` start with the `bplist00` header.
    public static func isBinaryPropertyList(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: BinaryPropertyListTrailer.magic)
    }

    /// Reads the property list in `data`.
    /// - Throws: ``PropertyListError`` with the byte offset of the problem.
    public func read(_ data: Data) throws(PropertyListError) -> PropertyListValue {
        guard data.count <= limits.maxInputSize else {
            throw PropertyListError(.inputTooLarge(size: data.count, limit: limits.maxInputSize), at: .byte(0))
        }
        return try read(Array(data))
    }

    /// Reads the property list in `bytes`.
    /// - Throws: ``PropertyListError`` with the byte offset of the problem.
    public func read(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListValue {
        guard bytes.count <= limits.maxInputSize else {
            throw PropertyListError(.inputTooLarge(size: bytes.count, limit: limits.maxInputSize), at: .byte(0))
        }
        let trailer = try BinaryPropertyListTrailer(bytes, limits: limits)
        let decoder = BinaryObjectDecoder(bytes: bytes, trailer: trailer, limits: limits)
        return try decoder.object(trailer.topObject, depth: 1)
    }
}

/// Decodes the objects of one binary property list, each once.
private struct BinaryObjectDecoder {
    let bytes: [UInt8]
    let trailer: BinaryPropertyListTrailer
    let limits: PropertyListLimits
    let objects: SharedObjects<PropertyListValue>

    init(bytes: [UInt8], trailer: BinaryPropertyListTrailer, limits: PropertyListLimits) {
        self.bytes = bytes
        self.trailer = trailer
        self.limits = limits
        objects = SharedObjects(count: trailer.objectCount, maxValues: limits.maxValues)
    }

    /// The object at `index`, which sits at nesting `depth`.
    func object(_ index: Int, depth: Int) throws(PropertyListError) -> PropertyListValue {
        let offset = trailer.offsets[index]
        guard depth <= limits.maxDepth else {
            throw PropertyListError(.tooDeep(limit: limits.maxDepth), at: .byte(offset))
        }
        return try objects.object(index, at: .byte(offset)) { () throws(PropertyListError) in
            try decode(at: offset, depth: depth)
        }
    }

    /// Decodes the object whose marker is at `offset`.
    private func decode(at offset: Int, depth: Int) throws(PropertyListError) -> PropertyListValue {
        let marker = bytes[offset]
        let low = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            switch low {
            case 0x8: return .boolean(false)
            case 0x9: return .boolean(true)
            case 0x0: throw PropertyListError(.unsupportedObject("null"), at: .byte(offset))
            case 0xF: throw PropertyListError(.unsupportedObject("fill"), at: .byte(offset))
            default: throw PropertyListError(.unknownMarker(marker), at: .byte(offset))
            }
        case 0x1:
            return .integer(try integer(at: offset))
        case 0x2 where low == 2:
            return .real(Double(Float(bitPattern: UInt32(try unsigned(offset + 1, width: 4, object: offset)))))
        case 0x2 where low == 3:
            return .real(Double(bitPattern: try unsigned(offset + 1, width: 8, object: offset)))
        case 0x3 where low == 3:
            let seconds = Double(bitPattern: try unsigned(offset + 1, width: 8, object: offset))
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case 0x4:
            let range = try contents(at: offset, unit: 1)
            return .data(Data(bytes[range]))
        case 0x5:
            let range = try contents(at: offset, unit: 1)
            guard bytes[range].allSatisfy({ $0 < 0x80 }) else {
                throw PropertyListError(.invalidString("ASCII"), at: .byte(offset))
            }
            return .string(String(decoding: bytes[range], as: UTF8.self))
        case 0x6:
            return .string(try utf16String(in: try contents(at: offset, unit: 2), at: offset))
        case 0x8:
            guard low < 8 else { throw PropertyListError(.integerOutOfRange, at: .byte(offset)) }
            return .uid(try unsigned(offset + 1, width: low + 1, object: offset))
        case 0xA:
            let references = try contents(at: offset, unit: trailer.referenceSize)
            var elements: [PropertyListValue] = []
            elements.reserveCapacity(references.count / trailer.referenceSize)
            for position in stride(from: references.lowerBound, to: references.upperBound, by: trailer.referenceSize) {
                elements.append(try object(try reference(at: position), depth: depth + 1))
            }
            return .array(elements)
        case 0xB:
            throw PropertyListError(.unsupportedObject("ordered set"), at: .byte(offset))
        case 0xC:
            throw PropertyListError(.unsupportedObject("set"), at: .byte(offset))
        case 0xD:
            return .dictionary(try dictionary(at: offset, depth: depth))
        default:
            throw PropertyListError(.unknownMarker(marker), at: .byte(offset))
        }
    }

    /// The dictionary whose marker is at `offset`: key references, then value references.
    private func dictionary(at offset: Int, depth: Int) throws(PropertyListError) -> PropertyListDictionary {
        let references = try contents(at: offset, unit: 2 * trailer.referenceSize)
        let half = references.count / 2
        var result = PropertyListDictionary()
        for position in stride(from: references.lowerBound, to: references.lowerBound + half, by: trailer.referenceSize)
        {
            let keyIndex = try reference(at: position)
            let keyValue = try object(keyIndex, depth: depth + 1)
            guard case .string(let key) = keyValue else {
                throw PropertyListError(.nonStringKey(keyValue.kind), at: .byte(trailer.offsets[keyIndex]))
            }
            guard !result.contains(key: key) else { throw PropertyListError(.duplicateKey(key), at: .byte(offset)) }
            result[key] = try object(try reference(at: position + half), depth: depth + 1)
        }
        return result
    }

    /// The object index stored at `position`, checked to name an object.
    private func reference(at position: Int) throws(PropertyListError) -> Int {
        let index = BigEndian.unsigned(bytes, at: position, width: trailer.referenceSize)
        guard index < UInt64(trailer.objectCount) else {
            throw PropertyListError(.referenceOutOfRange(index, objectCount: trailer.objectCount), at: .byte(position))
        }
        return Int(index)
    }

    /// The integer whose marker (0x10–0x14) is at `offset`: 1, 2 and 4 bytes unsigned, 8 bytes
    /// signed, 16 bytes signed and within the 64-bit range.
    private func integer(at offset: Int) throws(PropertyListError) -> Int64 {
        let exponent = Int(bytes[offset] & 0x0F)
        guard exponent <= 4 else { throw PropertyListError(.unknownMarker(bytes[offset]), at: .byte(offset)) }
        let width = 1 << exponent
        guard width == 16 else {
            let value = try unsigned(offset + 1, width: width, object: offset)
            return width == 8 ? Int64(bitPattern: value) : Int64(value)
        }
        let high = try unsigned(offset + 1, width: 8, object: offset)
        let low = Int64(bitPattern: try unsigned(offset + 9, width: 8, object: offset))
        // The 128-bit value fits in 64 bits when the high half only extends the low half's sign.
        guard high == (low < 0 ? UInt64.max : 0) else { throw PropertyListError(.integerOutOfRange, at: .byte(offset)) }
        return low
    }

    /// The byte range of the contents of the data, string, array or dictionary whose marker is at
    /// `offset`, with elements of `unit` bytes: the count is the marker's low nibble, or an integer
    /// object after the marker when the nibble is 0xF.
    private func contents(at offset: Int, unit: Int) throws(PropertyListError) -> Range<Int> {
        var start = offset + 1
        var count = UInt64(bytes[offset] & 0x0F)
        if count == 0x0F {
            let marker = UInt8(try unsigned(start, width: 1, object: offset))
            guard marker >> 4 == 0x1, marker & 0x0F <= 3 else {
                throw PropertyListError(.unknownMarker(marker), at: .byte(start))
            }
            let width = 1 << Int(marker & 0x0F)
            count = try unsigned(start + 1, width: width, object: offset)
            start += 1 + width
        }
        guard count <= UInt64((trailer.objectAreaEnd - start) / unit) else {
            throw PropertyListError(.countTooLarge(count), at: .byte(offset))
        }
        return start..<start + Int(count) * unit
    }

    /// The `width`-byte big-endian unsigned integer at `start`, after checking that its bytes lie
    /// in the object area; the error names the object whose marker is at `object`.
    private func unsigned(_ start: Int, width: Int, object: Int) throws(PropertyListError) -> UInt64 {
        guard start <= trailer.objectAreaEnd - width else {
            throw PropertyListError(.truncated("the object at byte \(object)"), at: .byte(object))
        }
        return BigEndian.unsigned(bytes, at: start, width: width)
    }

    /// The big-endian UTF-16 string in `range`; unpaired surrogates are an error.
    private func utf16String(in range: Range<Int>, at offset: Int) throws(PropertyListError) -> String {
        let units = stride(from: range.lowerBound, to: range.upperBound, by: 2).lazy.map {
            UInt16(self.bytes[$0]) << 8 | UInt16(self.bytes[$0 + 1])
        }
        var iterator = units.makeIterator()
        var decoder = UTF16()
        var scalars = String.UnicodeScalarView()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): scalars.append(scalar)
            case .emptyInput: return String(scalars)
            case .error: throw PropertyListError(.invalidString("UTF-16"), at: .byte(offset))
            }
        }
    }
}
