// Malformed and hostile binary property lists: each is refused with the reason and the byte
// offset of the object, reference, offset-table entry or trailer field at fault — never a trap,
// a hang or an allocation beyond the input's size.
import Foundation
import PropertyLists
import Testing

@Suite struct MalformedBinaryTests {
    typealias Raw = RawBinaryPropertyList

    /// The error reading `bytes` throws (a failed expectation when it reads).
    static func error(_ bytes: [UInt8], limits: PropertyListLimits = PropertyListLimits()) -> PropertyListError? {
        #expect(throws: PropertyListError.self) { try BinaryPropertyListReader(limits: limits).read(bytes) }
        do {
            _ = try BinaryPropertyListReader(limits: limits).read(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func notABinaryPropertyList() {
        #expect(Self.error(Array("<?xml version=\"1.0\"?>".utf8)) == PropertyListError(.notAPropertyList, at: .byte(0)))
        #expect(Self.error(Array("bplist15".utf8) + [UInt8](repeating: 0, count: 40))?.reason == .notAPropertyList)
    }

    @Test func inputLargerThanTheLimit() {
        let bytes = Raw(objects: [Raw.ascii("abc")]).bytes
        let error = Self.error(bytes, limits: PropertyListLimits(maxInputSize: bytes.count - 1))
        #expect(error == PropertyListError(.inputTooLarge(size: bytes.count, limit: bytes.count - 1), at: .byte(0)))
    }

    @Test func truncatedTrailer() {
        let whole = Array(BinaryPropertyListWriter().write(CoreDataMetadataTests.metadata))
        // Shorter than a header, an object, an offset and a trailer.
        #expect(Self.error(Array(whole.prefix(30)))?.reason == .truncated("the trailer (30 bytes, at least 42 needed)"))
        #expect(Self.error(Array(whole.prefix(30)))?.position == .byte(30))
        // Cut inside the trailer: what is left where the trailer should be is not one.
        for cut in [1, 8, 17, 31] {
            let bytes = Array(whole.dropLast(cut))
            let error = Self.error(bytes)
            guard case .invalidTrailer? = error?.reason, case .byte(let offset)? = error?.position else {
                Issue.record("cut \(cut): \(String(describing: error))")
                continue
            }
            #expect(offset >= bytes.count - 32 && offset < bytes.count)
        }
    }

    @Test func impossibleTrailerFields() {
        var raw = Raw(objects: [Raw.ascii("a")])
        raw.referenceSize = 0
        #expect(
            Self.error(raw.bytes)
                == PropertyListError(.invalidTrailer("reference size 0 (1 to 8)"), at: .byte(raw.trailerStart + 7)))
        raw.referenceSize = 1
        raw.offsetSize = 9
        #expect(Self.error(raw.bytes)?.position == .byte(raw.trailerStart + 6))
        raw.offsetSize = 1
        raw.top = 1
        #expect(
            Self.error(raw.bytes)
                == PropertyListError(.invalidTrailer("top object 1 of 1 objects"), at: .byte(raw.trailerStart + 16)))
        raw.top = 0
        raw.declaredTableStart = 4
        #expect(Self.error(raw.bytes)?.position == .byte(raw.trailerStart + 24))
        raw.declaredTableStart = 1 << 40
        #expect(Self.error(raw.bytes)?.position == .byte(raw.trailerStart + 24))
        raw.declaredTableStart = nil
        raw.declaredCount = 0
        #expect(
            Self.error(raw.bytes) == PropertyListError(.invalidTrailer("no objects"), at: .byte(raw.trailerStart + 8)))
    }

    @Test func hugeObjectCounts() {
        var raw = Raw(objects: [Raw.ascii("a")])
        raw.declaredCount = 1 << 40
        #expect(
            Self.error(raw.bytes)
                == PropertyListError(.tooManyObjects(count: 1 << 40, limit: 10_000), at: .byte(raw.trailerStart + 8)))
        // Within the limit but more entries than the file holds.
        raw.declaredCount = 5_000
        raw.referenceSize = 2
        #expect(Self.error(raw.bytes)?.position == .byte(raw.trailerStart + 24))
        // More than one-byte references can name.
        let many = Raw(objects: [Raw.array([])] + Array(repeating: [0x09], count: 299), offsetSize: 2)
        #expect(Self.error(many.bytes)?.reason == .invalidTrailer("1-byte references cannot name 300 objects"))
        // The object limit can be lowered.
        let error = Self.error(many.bytes, limits: PropertyListLimits(maxObjects: 100))
        #expect(error?.reason == .tooManyObjects(count: 300, limit: 100))
    }

    @Test func offsetsOutOfRange() {
        var raw = Raw(objects: [Raw.array([1]), Raw.ascii("a")])
        raw.offsetOverrides = [1: UInt64(raw.tableStart)]
        #expect(
            Self.error(raw.bytes)
                == PropertyListError(.offsetOutOfRange(UInt64(raw.tableStart)), at: .byte(raw.tableStart + 1)))
        raw.offsetOverrides = [0: 3]
        #expect(Self.error(raw.bytes) == PropertyListError(.offsetOutOfRange(3), at: .byte(raw.tableStart)))
    }

    @Test func referencesOutOfRange() {
        let raw = Raw(objects: [Raw.array([1, 5]), Raw.ascii("a")])
        #expect(Self.error(raw.bytes) == PropertyListError(.referenceOutOfRange(5, objectCount: 2), at: .byte(10)))
        let dictionary = Raw(objects: [Raw.dictionary(keys: [1], values: [7]), Raw.ascii("k")])
        #expect(
            Self.error(dictionary.bytes) == PropertyListError(.referenceOutOfRange(7, objectCount: 2), at: .byte(10)))
    }

    @Test func cycles() throws {
        let itself = Raw(objects: [Raw.array([0])])
        #expect(Self.error(itself.bytes) == PropertyListError(.cycle(object: 0), at: .byte(8)))
        let loop = Raw(objects: [Raw.ascii("x"), Raw.dictionary(keys: [0], values: [2]), Raw.array([0, 1])], top: 1)
        #expect(Self.error(loop.bytes) == PropertyListError(.cycle(object: 1), at: .byte(loop.offset(of: 1))))
        // Sharing without a cycle is fine: the string and the inner array are each used twice.
        let shared = Raw(objects: [Raw.array([1, 1, 2, 2]), Raw.array([2]), Raw.ascii("s")])
        #expect(try BinaryPropertyListReader().read(shared.bytes) == [["s"], ["s"], "s", "s"])
    }

    /// Arrays nested `levels` deep, the innermost empty.
    static func nested(_ levels: Int) -> Raw {
        Raw(objects: (0..<levels).map { $0 == levels - 1 ? Raw.array([]) : Raw.array([UInt8($0 + 1)]) })
    }

    @Test func depthLimit() throws {
        var value = try BinaryPropertyListReader().read(Self.nested(64).bytes)
        var depth = 1
        while let inner = value.arrayValue?.first {
            value = inner
            depth += 1
        }
        #expect(depth == 64)
        let tooDeep = Self.nested(65)
        #expect(Self.error(tooDeep.bytes) == PropertyListError(.tooDeep(limit: 64), at: .byte(tooDeep.offset(of: 64))))
        let error = Self.error(Self.nested(10).bytes, limits: PropertyListLimits(maxDepth: 9))
        #expect(error?.reason == .tooDeep(limit: 9))
    }

    @Test func hugeCounts() {
        // An array claiming 2^62 references, a string claiming 2^32 characters, data claiming 300 bytes.
        let array = Raw(objects: [[0xAF, 0x13, 0x40, 0, 0, 0, 0, 0, 0, 0]])
        #expect(Self.error(array.bytes) == PropertyListError(.countTooLarge(1 << 62), at: .byte(8)))
        let string = Raw(objects: [[0x6F, 0x13, 0, 0, 0, 1, 0, 0, 0, 0, 0x00, 0x41]])
        #expect(Self.error(string.bytes) == PropertyListError(.countTooLarge(1 << 32), at: .byte(8)))
        let data = Raw(objects: [[0x4F, 0x11, 0x01, 0x2C, 1, 2, 3]])
        #expect(Self.error(data.bytes) == PropertyListError(.countTooLarge(300), at: .byte(8)))
        // A count whose own integer is cut short, or is not an integer.
        let cut = Raw(objects: [[0x5F, 0x13, 0, 0]])
        #expect(Self.error(cut.bytes) == PropertyListError(.truncated("the object at byte 8"), at: .byte(8)))
        let notInteger = Raw(objects: [[0x5F, 0x23, 0, 0]])
        #expect(Self.error(notInteger.bytes) == PropertyListError(.unknownMarker(0x23), at: .byte(9)))
    }

    @Test func sharedContainersCannotUnfoldWithoutBound() throws {
        // 1,000 references to an array of 1,000 references: a million values from a 2 KB file.
        let references = { (target: UInt8) in [0xAF, 0x11, 0x03, 0xE8] + [UInt8](repeating: target, count: 1_000) }
        let raw = Raw(objects: [references(1), references(2), Raw.ascii("x")], offsetSize: 2)
        #expect(
            Self.error(raw.bytes) == PropertyListError(.tooManyValues(limit: 100_000), at: .byte(raw.offset(of: 1))))
        let generous = PropertyListLimits(maxValues: 1_001_001)
        #expect(try BinaryPropertyListReader(limits: generous).read(raw.bytes).arrayValue?.count == 1_000)
    }

    @Test func objectsThatAreNotPropertyListValues() {
        #expect(Self.error(Raw(objects: [[0x00]]).bytes) == PropertyListError(.unsupportedObject("null"), at: .byte(8)))
        #expect(Self.error(Raw(objects: [[0x0F]]).bytes) == PropertyListError(.unsupportedObject("fill"), at: .byte(8)))
        #expect(Self.error(Raw(objects: [[0xC0]]).bytes) == PropertyListError(.unsupportedObject("set"), at: .byte(8)))
        #expect(Self.error(Raw(objects: [[0x70]]).bytes) == PropertyListError(.unknownMarker(0x70), at: .byte(8)))
        #expect(
            Self.error(Raw(objects: [[0x21, 0, 0]]).bytes) == PropertyListError(.unknownMarker(0x21), at: .byte(8)))
        #expect(Self.error(Raw(objects: [[0x15, 0]]).bytes) == PropertyListError(.unknownMarker(0x15), at: .byte(8)))
        #expect(Self.error(Raw(objects: [[0x88, 0]]).bytes) == PropertyListError(.integerOutOfRange, at: .byte(8)))
    }

    @Test func truncatedObjects() {
        let integer = Raw(objects: [Raw.array([1]), [0x13, 0, 0, 0]])
        #expect(Self.error(integer.bytes) == PropertyListError(.truncated("the object at byte 10"), at: .byte(10)))
        let date = Raw(objects: [[0x33, 0, 0]])
        #expect(Self.error(date.bytes)?.reason == .truncated("the object at byte 8"))
    }

    @Test func sixteenByteIntegers() throws {
        let minusFive = [0x14] + [UInt8](repeating: 0xFF, count: 15) + [0xFB]
        #expect(try BinaryPropertyListReader().read(Raw(objects: [minusFive]).bytes) == -5)
        let small = [0x14] + [UInt8](repeating: 0, count: 15) + [0x2A]
        #expect(try BinaryPropertyListReader().read(Raw(objects: [small]).bytes) == 42)
        let huge = [0x14, 0x01] + [UInt8](repeating: 0, count: 15)
        #expect(Self.error(Raw(objects: [huge]).bytes) == PropertyListError(.integerOutOfRange, at: .byte(8)))
        // 2^63 fits in 128 bits but not in a signed 64-bit integer.
        let twoToThe63 = [0x14] + [UInt8](repeating: 0, count: 8) + [0x80] + [UInt8](repeating: 0, count: 7)
        #expect(Self.error(Raw(objects: [twoToThe63]).bytes)?.reason == .integerOutOfRange)
    }

    @Test func badStringsAndKeys() {
        let loneSurrogate = Raw(objects: [[0x61, 0xD8, 0x00]])
        #expect(Self.error(loneSurrogate.bytes) == PropertyListError(.invalidString("UTF-16"), at: .byte(8)))
        let highByte = Raw(objects: [[0x52, 0x41, 0xE9]])
        #expect(Self.error(highByte.bytes) == PropertyListError(.invalidString("ASCII"), at: .byte(8)))
        let integerKey = Raw(objects: [Raw.dictionary(keys: [1], values: [2]), [0x10, 0x01], Raw.ascii("v")])
        #expect(
            Self.error(integerKey.bytes)
                == PropertyListError(.nonStringKey("integer"), at: .byte(integerKey.offset(of: 1))))
        let twice = Raw(objects: [Raw.dictionary(keys: [1, 1], values: [2, 2]), Raw.ascii("k"), Raw.ascii("v")])
        #expect(Self.error(twice.bytes) == PropertyListError(.duplicateKey("k"), at: .byte(8)))
    }

    @Test func errorsDescribeThemselves() {
        let error = PropertyListError(.referenceOutOfRange(77, objectCount: 12), at: .byte(1042))
        #expect(error.description == "byte 1042: the object reference 77 is out of range (12 objects)")
        #expect(
            PropertyListError(.cycle(object: 3), at: .archivedObject(3)).description
                == "$objects[3]: object 3 contains itself")
    }
}
