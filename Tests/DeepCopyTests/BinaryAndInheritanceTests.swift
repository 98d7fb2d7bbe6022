// Values and kinds a copy must not alter: Binary (with external storage allowed; empty, every
// byte value, a megabyte) and Transformable values arrive byte for byte, and every object keeps
// its concrete sub-entity two levels below an abstract root — into an empty store (rows move as
// they are), into a store of a compatible model whose entity numbers all differ (rows remapped),
// and over matched objects under `update`.
import Foundation
import GraphStore
import Testing

@testable import DeepCopy

@Suite struct BinaryAndInheritanceTests {
    static let codecName = "DeepCopyTests.StringList"

    /// Assets under an abstract root: photos (and panoramas below them) and clips. The `variant`
    /// adds an entity that sorts first, so every entity number differs.
    static func model(variant: Bool = false) throws -> ObjectModel {
        TransformableCodecs.shared.register(CodableTransformableCodec<[String]>(), as: codecName)
        var builder = ModelBuilder("Media")
        if variant { builder = builder.entity("Aardvark") { $0.attribute("name", .string) } }
        return
            try builder
            .entity("Asset", abstract: true) { asset in
                asset.attribute("name", .string, optional: false)
                asset.attribute("bytes", .binary, externalStorage: true)
                asset.attribute("labels", .transformable, transformer: codecName)
                asset.unique("name")
            }
            .entity("Photo", parent: "Asset") { $0.attribute("width", .integer32) }
            .entity("Panorama", parent: "Photo") { $0.attribute("degrees", .double) }
            .entity("Clip", parent: "Asset") { $0.attribute("seconds", .double) }
            .build()
    }

    /// A megabyte of deterministic noise.
    static let noise: Data = {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        return Data(
            (0..<1_048_576).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return UInt8(truncatingIfNeeded: state >> 33)
            })
    }()

    /// The source objects: entity, name, bytes, labels.
    static let assets: [(entity: String, name: String, bytes: Data?, labels: [String]?)] = [
        ("Photo", "p1", Data((0...255).map(UInt8.init)), ["a", "b"]),
        ("Panorama", "p2", noise, []),
        ("Clip", "c1", Data(), nil),
        ("Photo", "p3", nil, ["ünïcödé", "\u{0}", "tab\there"]),
        ("Panorama", "p4", Data([0, 0, 0, 255, 0]), ["x"]),
    ]

    static func source() throws -> PersistentStore {
        let store = try PersistentStore.inMemory(model: model())
        let context = try ObjectContext(store: store)
        for asset in assets {
            let object = try context.insert(asset.entity)
            try object.set("name", asset.name)
            try object.set("bytes", asset.bytes)
            if let labels = asset.labels { try object.setTransformable("labels", labels) }
        }
        try context.save()
        return store
    }

    /// Every asset as its concrete entity, name, raw stored bytes of both values, and decoded labels.
    static func walk(_ store: PersistentStore) throws -> [String: (String, AttributeValue?, AttributeValue?, [String]?)]
    {
        let context = try ObjectContext(store: store)
        var assets: [String: (String, AttributeValue?, AttributeValue?, [String]?)] = [:]
        for object in try context.fetch(FetchRequest(entityName: "Asset")) {
            let name = try object.get("name", as: String.self) ?? ""
            assets[name] = (
                object.entity.name, try object.value(at: try #require(object.entity.attribute(named: "bytes")).index),
                try object.value(at: try #require(object.entity.attribute(named: "labels")).index),
                try object.transformable("labels") as? [String]
            )
        }
        return assets
    }

    /// Checks `target` holds exactly the source's assets, kinds and bytes.
    static func expectFaithful(_ target: PersistentStore, _ source: PersistentStore) throws {
        let copied = try walk(target)
        let original = try walk(source)
        #expect(copied.count == assets.count)
        for asset in assets {
            let copy = try #require(copied[asset.name])
            let from = try #require(original[asset.name])
            #expect(copy.0 == asset.entity, "\(asset.name)")
            #expect(copy.1 == from.1 && copy.2 == from.2, "\(asset.name)")
            #expect(copy.1 == asset.bytes.map(AttributeValue.binary), "\(asset.name)")
            #expect(copy.3 == asset.labels, "\(asset.name)")
        }
    }

    @Test func valuesAndKindsArriveUnchangedInAnEmptyStore() throws {
        let source = try Self.source()
        let target = try PersistentStore.inMemory(model: Self.model())
        let report = try DeepCopier(from: source, to: target).run()
        #expect(report.entities["Panorama"]?.copied == 2 && report.entities["Clip"]?.copied == 1)
        try Self.expectFaithful(target, source)
        #expect(try StoreDiff(source, target).differences().isEmpty)
    }

    @Test func valuesAndKindsArriveUnchangedUnderOtherEntityNumbers() throws {
        let source = try Self.source()
        let target = try PersistentStore.inMemory(model: Self.model(variant: true))
        let user = try ObjectContext(store: target)
        try user.insert("Clip").set("name", "mine")
        try user.save()
        _ = try DeepCopier(from: source, to: target).run()
        let copied = try Self.walk(target)
        #expect(copied["mine"]?.0 == "Clip")
        let check = try ObjectContext(store: target)
        try check.delete(
            try #require(try check.fetch(FetchRequest(entityName: "Clip", predicate: .key("name") == "mine")).first))
        try check.save()
        try Self.expectFaithful(target, source)
    }

    @Test func matchedObjectsTakeTheSourcesBytesUnderUpdate() throws {
        let source = try Self.source()
        let target = try PersistentStore.inMemory(model: Self.model())
        let user = try ObjectContext(store: target)
        for name in ["p1", "p2"] {
            let photo = try user.insert(name == "p1" ? "Photo" : "Panorama")
            try photo.set("name", name)
            try photo.set("bytes", Data([9, 9, 9]))
            try photo.setTransformable("labels", ["old"])
        }
        try user.save()
        let report = try DeepCopier(from: source, to: target).run()
        #expect(report.entities["Photo"]?.updated == 1 && report.entities["Panorama"]?.updated == 1)
        try Self.expectFaithful(target, source)
    }
}
