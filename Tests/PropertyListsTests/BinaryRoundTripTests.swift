// Round trips of every value type through BinaryPropertyListWriter and BinaryPropertyListReader,
// with the encodings that the writer must choose (integer widths, ASCII or UTF-16 strings, long
// counts, 2-byte references) checked in the bytes, and the writer's key order and sharing of
// equal scalars.
import Foundation
import PropertyLists
import Testing

@Suite struct BinaryRoundTripTests {
    /// Writes `value`, reads it back, and returns the bytes after checking equality.
    @discardableResult
    static func roundTrip(_ value: PropertyListValue) throws -> [UInt8] {
        let bytes = BinaryPropertyListWriter().write(value)
        #expect(try BinaryPropertyListReader().read(bytes) == value)
        return Array(bytes)
    }

    /// The marker byte of the top object (the first object, at byte 8).
    static func topMarker(_ value: PropertyListValue) throws -> UInt8 { try roundTrip(value)[8] }

    @Test func integersTakeTheFewestBytes() throws {
        let cases: [(Int64, UInt8)] = [
            (0, 0x10), (255, 0x10), (256, 0x11), (65_535, 0x11), (65_536, 0x12), (4_294_967_295, 0x12),
            (4_294_967_296, 0x13), (Int64.max, 0x13), (-1, 0x13), (Int64.min, 0x13),
        ]
        for (value, marker) in cases {
            #expect(try Self.topMarker(.integer(value)) == marker, "\(value)")
        }
    }

    @Test func scalarsOfEveryType() throws {
        let values: [PropertyListValue] = [
            true, false, 0.0, -0.0, 2.5, .real(.infinity), .real(-Double.greatestFiniteMagnitude),
            .date(Date(timeIntervalSinceReferenceDate: 0)),
            .date(Date(timeIntervalSinceReferenceDate: -978_307_200.25)),
            .data(Data()), .data(Data(0..<14)), .data(Data(0..<15)), .data(Data((0..<300).map { UInt8($0 % 256) })),
            .uid(0), .uid(255), .uid(256), .uid(70_000), .uid(UInt64(UInt32.max) + 1),
        ]
        for value in values { try Self.roundTrip(value) }
        let negativeZero = try BinaryPropertyListReader().read(BinaryPropertyListWriter().write(-0.0))
        #expect(negativeZero.realValue?.sign == .minus)
        #expect(try Self.topMarker(2.5) == 0x23)
        #expect(try Self.topMarker(.date(Date(timeIntervalSinceReferenceDate: 1))) == 0x33)
        #expect(try Self.topMarker(.uid(256)) == 0x81)
        #expect(try Self.topMarker(.uid(70_000)) == 0x83)
    }

    @Test func stringsAreASCIIOrUTF16() throws {
        #expect(try Self.topMarker("") == 0x50)
        #expect(try Self.topMarker("SQLite") == 0x56)
        #expect(try Self.topMarker("fourteen chars") == 0x5E)
        // 15 characters and more: the count follows as an integer object.
        #expect(try Array(Self.roundTrip("fifteen chars!!")[8...9]) == [0x5F, 0x10])
        #expect(try Self.topMarker("Crème brûlée") == 0x6C)
        // A character outside the Basic Multilingual Plane takes two UTF-16 code units.
        let emoji = try Self.roundTrip("a😀")
        #expect(Array(emoji[8...14]) == [0x63, 0x00, 0x61, 0xD8, 0x3D, 0xDE, 0x00])
        try Self.roundTrip(.string(String(repeating: "é", count: 70_000)))
    }

    @Test func containersNestAndCountBeyondFifteen() throws {
        let wide = PropertyListValue.array((0..<300).map { .integer(Int64($0)) })
        let dictionary = PropertyListValue.dictionary(
            PropertyListDictionary((0..<20).map { ("key\($0)", .array([.integer(Int64($0)), .string("v\($0)")])) }))
        try Self.roundTrip(wide)
        try Self.roundTrip(dictionary)
        try Self.roundTrip([[], [:], [[[["deep"]]]], ["a": ["b": ["c": .data(Data([1, 2, 3]))]]]])
    }

    @Test func moreThan255ObjectsUseTwoByteReferences() throws {
        let bytes = try Self.roundTrip(.array((0..<300).map { .string("s\($0)") }))
        #expect(bytes[bytes.count - 32 + 7] == 2)
        #expect(bytes[bytes.count - 32 + 6] == 2)  // the offset table ends beyond byte 255 too
    }

    @Test func keysAreSortedByCodePointUnlessToldOtherwise() throws {
        let value: PropertyListValue = ["b": 1, "_z": 2, "Z": 3, "é": 4, "a": 5]
        let sorted = try BinaryPropertyListReader().read(BinaryPropertyListWriter().write(value))
        #expect(sorted.dictionaryValue?.keys == ["Z", "_z", "a", "b", "é"])
        let kept = try BinaryPropertyListReader().read(BinaryPropertyListWriter(keyOrder: .asGiven).write(value))
        #expect(kept.dictionaryValue?.keys == ["b", "_z", "Z", "é", "a"])
        // Equality ignores order; the bytes do not.
        #expect(sorted == kept)
        #expect(BinaryPropertyListWriter().write(value) != BinaryPropertyListWriter(keyOrder: .asGiven).write(value))
    }

    @Test func theSameValueGivesTheSameBytes() throws {
        let one: PropertyListValue = ["x": [1, 2, "three"], "y": .data(Data([9]))]
        let two: PropertyListValue = ["y": .data(Data([9])), "x": [1, 2, "three"]]
        #expect(BinaryPropertyListWriter().write(one) == BinaryPropertyListWriter().write(two))
    }

    @Test func equalScalarsAreWrittenOnceButContainersAndUIDsAreNot() throws {
        // Objects: array, "a", 1, [] , [] (containers twice), uid, uid; "a" and 1 once each.
        let value: PropertyListValue = ["a", "a", 1, 1, [], [], .uid(1), .uid(1)]
        let bytes = try Self.roundTrip(value)
        let objectCount = bytes[(bytes.count - 24)..<(bytes.count - 16)].reduce(0) { $0 << 8 | Int($1) }
        #expect(objectCount == 7)
        // Canonically equivalent but different strings stay two objects and two keys.
        let accents: PropertyListValue = ["\u{E9}": 1, "e\u{301}": 2]
        let read = try BinaryPropertyListReader().read(BinaryPropertyListWriter().write(accents))
        #expect(read.dictionaryValue?.count == 2)
        #expect(read.dictionaryValue?["e\u{301}"] == 2)
    }

    @Test func dictionaryEditsKeepOrder() {
        var dictionary: PropertyListDictionary = ["a": 1, "b": 2, "c": 3]
        dictionary["b"] = nil
        dictionary["d"] = 4
        dictionary["a"] = 5
        #expect(dictionary.keys == ["a", "c", "d"])
        #expect(dictionary["a"] == 5)
        #expect(dictionary["c"] == 3)
        #expect(dictionary.sortedByKey().keys == ["a", "c", "d"])
        #expect(PropertyListDictionary([("k", 1), ("k", 2)]).keys == ["k"])
        #expect(PropertyListDictionary([("k", 1), ("k", 2)])["k"] == 2)
    }
}
