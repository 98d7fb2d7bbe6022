// Core Data's version hashes against published values: the entity hashes fearless-iOS asserts for
// its model (Fixtures/FearlessIOS, 17 entities declared exactly as in the fixture), the store
// checksum over them, and the digest Xcode wrote into a mapping model's metadata together with
// the hashes it covers (Fixtures/CoreDataPlus). Then which declaration facts change a hash.
import Foundation
import Testing

@testable import GraphStore
@testable import ModelFiles

private let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

/// Base64 hashes by entity name.
private func base64(_ hashes: [String: Data]) -> [String: String] {
    hashes.mapValues { $0.base64EncodedString() }
}

@Suite struct CoreDataHashTests {
    struct Published: Decodable {
        var entityVersionHashes: [String: String]
        var storeModelVersionChecksum: String
    }

    static func published() throws -> Published {
        let data = try Data(contentsOf: fixtures.appendingPathComponent("FearlessIOS/published-hashes.json"))
        return try JSONDecoder().decode(Published.self, from: data)
    }

    @Test func entityHashesEqualThePublishedOnes() throws {
        let model = try XcodeModelReader.readModel(
            at: fixtures.appendingPathComponent("FearlessIOS/SubstrateDataModel_v8.xcdatamodel"))
        let computed = base64(model.coreDataVersionHashes.entityHashes)
        let published = try Self.published().entityVersionHashes
        // CDAsset and CDChain were declared differently in the model revision the hashes were
        // published for (Fixtures/FearlessIOS/README.md).
        let sameDeclarations = Set(published.keys).subtracting(["CDAsset", "CDChain"])
        #expect(sameDeclarations.count == 17)
        for name in sameDeclarations.sorted() {
            #expect(computed[name] == published[name], "\(name)")
        }
        #expect(computed.count == 21)
    }

    @Test func theChecksumOfThePublishedHashesIsThePublishedChecksum() throws {
        let published = try Self.published()
        let hashes = try published.entityVersionHashes.mapValues { try #require(Data(base64Encoded: $0)) }
        #expect(CoreDataVersionHashes(entityHashes: hashes).checksum == published.storeModelVersionChecksum)
    }

    /// Xcode's mapping-model editor stores its objects in a Core Data XML store whose metadata
    /// holds the hashes of Xcode's own entities and the digest over them (framework 1044).
    @Test func theDigestOfAnXcodeWrittenStoreIsTheOneItHolds() throws {
        let text = try String(
            contentsOf: fixtures.appendingPathComponent(
                "CoreDataPlus/MappingModels/V2toV3.xcmappingmodel/xcmapping.xml"),
            encoding: .utf8)
        let pairs = text.matches(of: #/<key>(XDDev\w+)</key>\s*<data>\s*([A-Za-z0-9+/=]+)\s*</data>/#)
        let hashes = try Dictionary(
            uniqueKeysWithValues: pairs.map { (String($0.1), try #require(Data(base64Encoded: String($0.2)))) })
        #expect(hashes.count == 5)
        let digest = try #require(
            text.firstMatch(of: #/<key>NSStoreModelVersionHashesDigest</key>\s*<string>([^<]+)</string>/#)?.1)
        #expect(CoreDataVersionHashes(entityHashes: hashes).digest == String(digest))
        // The checksum the same hashes get from Xcode 1448's mapping-model files (not in this fixture).
        #expect(CoreDataVersionHashes(entityHashes: hashes).checksum == "bMpud663vz0bXQE24C6Rh4MvJ5jVnzsD2sI3njZkKbc=")
    }

    @Test func versioningFactsAreReadFromXcodeModels() throws {
        let set = try ModelVersionSet.load(
            from: fixtures.appendingPathComponent("CoreDataPlus/SampleModel.xcdatamodeld").path)
        let luxury = try #require(try set.model(named: "SampleModel2").entity(named: "LuxuryCar")?.declaration)
        #expect(luxury.renamingIdentifier == "ExpensiveSportCar")
        let id = try #require(set.model(named: "SampleModel").entity(named: "Person")?.attribute(named: "id"))
        #expect(id.declaration.preservesValueAfterDeletion)
    }

    // MARK: - What a hash covers

    static func base() -> [EntityDescription] {
        var car = EntityDescription(name: "Car")
        car.attributes = [
            AttributeDescription(name: "plate", type: .string, isOptional: false),
            AttributeDescription(name: "photo", type: .binary),
            AttributeDescription(name: "speed", type: .integer64, isTransient: true),
        ]
        car.relationships = [RelationshipDescription(name: "owner", destination: "Person", inverse: "cars")]
        car.uniqueConstraints = [["plate"]]
        var sport = EntityDescription(name: "SportCar", parent: "Car")
        sport.attributes = [AttributeDescription(name: "turbo", type: .boolean)]
        var person = EntityDescription(name: "Person")
        person.attributes = [AttributeDescription(name: "name", type: .string)]
        person.relationships = [
            RelationshipDescription(name: "cars", destination: "Car", inverse: "owner", isToMany: true)
        ]
        return [car, sport, person]
    }

    static func hashes(_ entities: [EntityDescription]) throws -> [String: Data] {
        try ObjectModel(name: "Cars", entities: entities).coreDataVersionHashes.entityHashes
    }

    static func changed(_ change: (inout [EntityDescription]) -> Void) throws -> [String: Data] {
        var entities = base()
        change(&entities)
        return try hashes(entities)
    }

    @Test func factsCoreDataHashesChangeTheHash() throws {
        let before = try Self.hashes(Self.base())
        let changes: [(String, (inout [EntityDescription]) -> Void)] = [
            ("entity modifier", { $0[0].hashModifier = "v2" }),
            ("attribute modifier", { $0[0].attributes[0].hashModifier = "v2" }),
            ("relationship modifier", { $0[0].relationships[0].hashModifier = "v2" }),
            ("external storage", { $0[0].attributes[1].allowsExternalStorage = true }),
            ("preserve after deletion", { $0[0].attributes[0].preservesValueAfterDeletion = true }),
            ("optional", { $0[0].attributes[0].isOptional = true }),
            ("type", { $0[0].attributes[0].type = .uri }),
            ("to-one minimum", { $0[0].relationships[0].minCount = 1 }),
            ("unique constraint", { $0[0].uniqueConstraints = [] }),
            ("abstract", { $0[0].isAbstract = true }),
        ]
        for (label, change) in changes {
            let after = try Self.changed(change)
            #expect(after["Car"] != before["Car"], "\(label)")
            // A sub-entity's hash covers its parent's.
            #expect(after["SportCar"] != before["SportCar"], "\(label)")
            #expect(after["Person"] == before["Person"], "\(label)")
        }
        let ordered = try Self.changed { $0[2].relationships[0].isOrdered = true }
        #expect(ordered["Person"] != before["Person"] && ordered["Car"] == before["Car"])
    }

    @Test func factsCoreDataIgnoresLeaveTheHash() throws {
        let before = try Self.hashes(Self.base())
        let changes: [(String, (inout [EntityDescription]) -> Void)] = [
            ("renaming identifier", { $0[0].renamingIdentifier = "Auto" }),
            ("attribute renaming identifier", { $0[0].attributes[0].renamingIdentifier = "number" }),
            ("delete rule", { $0[0].relationships[0].deleteRule = .cascade }),
            ("default", { $0[0].attributes[0].defaultValue = .string("X") }),
            ("indexed", { $0[0].attributes[0].isIndexed = true }),
            ("userInfo", { $0[0].userInfo = ["note": "x"] }),
            ("transient attribute", { $0[0].attributes[2].type = .double }),
        ]
        for (label, change) in changes {
            #expect(try Self.changed(change) == before, "\(label)")
        }
    }

    @Test func theSeedKitHashChangesWithAModifierOnly() throws {
        let before = try ObjectModel(name: "Cars", entities: Self.base()).versionHash
        var renamed = Self.base()
        renamed[0].renamingIdentifier = "Auto"
        #expect(try ObjectModel(name: "Cars", entities: renamed).versionHash == before)
        for change in [
            { (e: inout [EntityDescription]) in e[0].hashModifier = "2" },
            { (e: inout [EntityDescription]) in e[2].attributes[0].hashModifier = "2" },
        ] {
            var entities = Self.base()
            change(&entities)
            #expect(try ObjectModel(name: "Cars", entities: entities).versionHash != before)
        }
    }

    @Test func modelFilesKeepTheVersioningFacts() throws {
        let yaml = """
            name: Cars
            entities:
              Car:
                renamedFrom: Auto
                hashModifier: "2"
                attributes:
                  plate: {type: string, renamedFrom: number, hashModifier: b, preserveAfterDeletion: true, readOnly: true}
                relationships:
                  owner: {destination: Person, inverse: cars, renamedFrom: driver, hashModifier: c, readOnly: true, min: 1}
              Person:
                relationships:
                  cars: {destination: Car, inverse: owner, toMany: true}
            """
        let model = try ModelFile.parse(yaml: yaml, source: "Cars.yaml").objectModel()
        let car = try #require(model.entity(named: "Car")?.declaration)
        #expect(car.renamingIdentifier == "Auto" && car.hashModifier == "2")
        let plate = try #require(car.attributes.first)
        #expect(plate.renamingIdentifier == "number" && plate.hashModifier == "b")
        #expect(plate.preservesValueAfterDeletion && plate.isReadOnly)
        let owner = try #require(car.relationships.first)
        #expect(owner.renamingIdentifier == "driver" && owner.hashModifier == "c" && owner.isReadOnly)
        #expect(owner.minCount == 1)
        let again = try ModelFile.parse(
            String(decoding: try ModelFile(model).jsonData(), as: UTF8.self), source: "json"
        )
        .objectModel()
        #expect(again.entityDescriptions == model.entityDescriptions)
        #expect(again.coreDataVersionHashes == model.coreDataVersionHashes)
    }
}
