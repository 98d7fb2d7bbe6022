// Tests that every attribute type survives a save and a reload in a fresh context: Decimal
// (exactly), UUID, URI, Binary (empty and external storage included), Float, Integer 16 and
// Transformable through a registered codec.
import Foundation
import Testing

@testable import GraphStore

@Suite struct AttributeTypeRoundTripTests {
    struct Point: Codable, Sendable, Equatable {
        var x: Int
        var y: Int
        var label: String
    }

    static let codecName = "AttributeTypeRoundTripTests.Point"

    static func model() throws -> ObjectModel {
        TransformableCodecs.shared.register(CodableTransformableCodec<Point>(), as: codecName)
        return try ModelBuilder("Types")
            .entity("Sample") { sample in
                sample.attribute("amount", .decimal)
                sample.attribute("identifier", .uuid)
                sample.attribute("link", .uri)
                sample.attribute("bytes", .binary)
                sample.attribute("photo", .binary, externalStorage: true)
                sample.attribute("ratio", .float)
                sample.attribute("small", .integer16)
                sample.attribute("point", .transformable, transformer: codecName)
            }
            .build()
    }

    /// Saves the values `fill` sets on a new Sample and reads the Sample back in a fresh context
    /// (returned too: the caller keeps it alive while it reads the Sample).
    static func roundTrip(_ fill: (ManagedObject) throws -> Void) throws -> (ObjectContext, ManagedObject) {
        let store = try PersistentStore.inMemory(model: model())
        let context = try ObjectContext(store: store)
        let sample = try context.insert("Sample")
        try fill(sample)
        try context.save()
        let fresh = try ObjectContext(store: store)
        return (fresh, try fresh.existingObject(with: sample.objectID))
    }

    @Test func everyTypeReadsBackWhatWasSaved() throws {
        let amount = try #require(
            Decimal(string: "12345678901234567890.123456789", locale: Locale(identifier: "en_US_POSIX")))
        let identifier = UUID()
        let link = try #require(URL(string: "https://example.com/a%20b/c?q=1&r=%C3%A9#part"))
        let bytes = Data([0, 1, 2, 0xFE, 0xFF, 0])
        let photo = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let point = Point(x: -3, y: 7, label: "Ünïcode")
        let (fresh, stored) = try Self.roundTrip { sample in
            try sample.set("amount", amount)
            try sample.set("identifier", identifier)
            try sample.set("link", link)
            try sample.set("bytes", bytes)
            try sample.set("photo", photo)
            try sample.set("ratio", Float(0.1))
            try sample.set("small", Int16.min)
            try sample.setTransformable("point", point)
        }
        defer { withExtendedLifetime(fresh) {} }
        #expect(try stored.get("amount", as: Decimal.self) == amount)
        #expect(try stored.get("identifier", as: UUID.self) == identifier)
        #expect(try stored.get("link", as: URL.self) == link)
        #expect(try stored.get("bytes", as: Data.self) == bytes)
        #expect(try stored.get("photo", as: Data.self) == photo)
        #expect(try stored.get("ratio", as: Float.self) == Float(0.1))
        #expect(try stored.get("small", as: Int16.self) == Int16.min)
        #expect(try stored.transformable("point") as? Point == point)
    }

    @Test func decimalsAreExactWhereDoublesAreNot() throws {
        let posix = Locale(identifier: "en_US_POSIX")
        let tenth = try #require(Decimal(string: "0.1", locale: posix))
        let fifth = try #require(Decimal(string: "0.2", locale: posix))
        let tiny = try #require(Decimal(string: "-0.000000000000000000000000000001", locale: posix))
        let (sumContext, sum) = try Self.roundTrip { try $0.set("amount", tenth + fifth) }
        let (tinyContext, small) = try Self.roundTrip { try $0.set("amount", tiny) }
        defer { withExtendedLifetime((sumContext, tinyContext)) {} }
        #expect(try sum.get("amount", as: Decimal.self) == Decimal(string: "0.3", locale: posix))
        #expect(0.1 + 0.2 != 0.3)  // what a Double attribute would have stored
        #expect(try small.get("amount", as: Decimal.self) == tiny)
    }

    @Test func boundaryAndEmptyValuesRoundTrip() throws {
        let (fresh, stored) = try Self.roundTrip { sample in
            try sample.set("small", Int16.max)
            try sample.set("bytes", Data())
            try sample.set("ratio", 0.1)  // a Double, rounded to Float precision on the way in
            try sample.set("link", URL(fileURLWithPath: "/tmp/seed kit/file.sqlite"))
        }
        defer { withExtendedLifetime(fresh) {} }
        #expect(try stored.get("small", as: Int16.self) == Int16.max)
        #expect(try stored.get("bytes", as: Data.self) == Data())
        #expect(try stored.get("ratio", as: Double.self) == Double(Float(0.1)))
        #expect(try stored.get("link", as: URL.self)?.path == "/tmp/seed kit/file.sqlite")
        #expect(try stored["amount"] == nil && stored["identifier"] == nil && stored.transformable("point") == nil)
    }

    @Test func valuesOutsideTheTypeAreRejectedBeforeTheSave() throws {
        let context = try ObjectContext(store: PersistentStore.inMemory(model: Self.model()))
        let sample = try context.insert("Sample")
        let range = try #require(throws: ObjectError.self) { try sample.set("small", Int(Int16.max) + 1) }
        #expect(range.kind == .outOfRange("32768 for integer16"))
        #expect(throws: ObjectError.self) { try sample.set("identifier", "not a UUID") }
        #expect(throws: TransformableCodecError.self) { try sample.setTransformable("point", "not a point") }
        #expect(try sample["small"] == nil && sample["point"] == nil)
    }
}
