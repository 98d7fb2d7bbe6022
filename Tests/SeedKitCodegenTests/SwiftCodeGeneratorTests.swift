// The Swift code generator: the committed code of the catalog and Grocery Dude models
// (Tests/Generated*Tests/Generated, compiled and used there) is exactly what generating again
// gives; the output does not depend on how the model was written; entities opt out or are renamed
// through their userInfo; names that would clash are refused with every reason.
import Foundation
import GraphStore
import ModelFiles
import SeedKitCodegen
import Testing
import TestSupport

@Suite struct SwiftCodeGeneratorTests {
    static let repository = Repository.root

    /// A model in SeedData and the folder holding its committed generated code.
    struct Fixture: Sendable, CustomStringConvertible {
        var model: String
        var folder: String
        var description: String { model }
    }

    static let fixtures = [
        Fixture(model: "SeedData/Catalog/Catalog.yaml", folder: "Tests/GeneratedCatalogTests/Generated"),
        Fixture(
            model: "SeedData/GroceryDude/GroceryDude.xcdatamodeld", folder: "Tests/GeneratedGroceryTests/Generated"),
    ]

    static func load(_ relative: String) throws -> ObjectModel {
        try ModelLoader.load(from: repository.appendingPathComponent(relative).path)
    }

    static func model(_ yaml: String) throws -> ObjectModel {
        try ModelFile.parse(yaml: yaml, source: "test.yaml").objectModel(source: "test.yaml")
    }

    @Test(arguments: fixtures) func generatingAgainGivesTheCommittedFilesByteForByte(_ fixture: Fixture) throws {
        let files = try SwiftCodeGenerator(model: try Self.load(fixture.model)).entityFiles()
        let folder = Self.repository.appendingPathComponent(fixture.folder)
        let committed = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasSuffix(".swift")
        }
        #expect(Set(committed) == Set(files.map(\.name)))
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file.name), encoding: .utf8)
            #expect(
                text == file.contents,
                "\(file.name) differs: run seedkit generate \(fixture.model) -o \(fixture.folder)")
        }
    }

    @Test func theOutputDependsOnTheModelNotOnHowItIsWritten() throws {
        let catalog = try Self.load("SeedData/Catalog/Catalog.yaml")
        let first = try SwiftCodeGenerator(model: catalog).entityFiles()
        #expect(try SwiftCodeGenerator(model: catalog).entityFiles() == first)
        // The same schema with entities and properties listed in another order, from JSON.
        var entities = catalog.entityDescriptions.reversed().map { entity in
            var entity = entity
            entity.attributes.reverse()
            entity.relationships.reverse()
            return entity
        }
        entities.swapAt(0, 1)
        let shuffled = try ObjectModel(name: "Catalog", entities: Array(entities))
        #expect(try SwiftCodeGenerator(model: shuffled).entityFiles() == first)
        // One file for the plugin holds the same declarations.
        let single = try SwiftCodeGenerator(model: catalog).singleFile(named: "Catalog.entities.swift").contents
        for file in first {
            let body = file.contents.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(5)
                .joined(separator: "\n")
            #expect(single.contains(body), "\(file.name)")
        }
        #expect(single.components(separatedBy: "import GraphStore").count == 2)
    }

    @Test func entitiesOptOutOrTakeAnotherTypeNameThroughTheirUserInfo() throws {
        let model = try Self.model(
            """
            name: Shop
            entities:
              Shelf:
                attributes: {code: {type: string, optional: false}}
                relationships: {items: {destination: Item, inverse: shelf, toMany: true, ordered: true}}
                userInfo: {seedkit.codegen: manual}
              Item:
                attributes: {name: string, price: decimal, id: uuid, link: uri, photo: binary, count: integer16}
                relationships: {shelf: {destination: Shelf, inverse: items, optional: false}}
                userInfo: {seedkit.typeName: ShopItem, seedkit.codegen: class}
            """)
        let files = try SwiftCodeGenerator(model: model, access: .internal).entityFiles()
        #expect(files.map(\.name) == ["ShopItem.swift"])
        let code = try #require(files.first?.contents)
        #expect(code.contains("\nstruct ShopItem: GraphStore.EntityObject {\n"))
        #expect(code.contains("    static let entityName = \"Item\"\n"))
        #expect(!code.contains("public "))
        // The hand-written Shelf is still the destination type; the required to-one is not optional.
        #expect(
            code.contains(
                "    var shelf: Shelf {\n        get throws { try Keys.shelf.requiredDestination(in: object) }"))
        #expect(code.contains("static let shelf = GraphStore.ToOneKey<ShopItem, Shelf>(\"shelf\")"))
        for type in ["Foundation.Decimal", "Foundation.UUID", "Foundation.URL", "Foundation.Data", "Swift.Int16"] {
            #expect(code.contains("GraphStore.AttributeKey<ShopItem, \(type)>"), "\(type)")
        }
        // A keyword as a property name is written in backticks.
        let keyword = try Self.model("name: K\nentities:\n  Rule:\n    attributes: {default: string, in: integer64}\n")
        let rule = try #require(try SwiftCodeGenerator(model: keyword).entityFiles().first?.contents)
        #expect(rule.contains("public var `default`: Swift.String? {"))
        #expect(rule.contains("public func setDefault(_ newValue: Swift.String?) throws {"))
        #expect(rule.contains("try Keys.`in`.set(newValue, in: object)"))
    }

    @Test func namesThatWouldClashAreRefusedWithEveryReason() throws {
        let model = try Self.model(
            """
            name: Clash
            entities:
              Triple:
                attributes: {object: string, up: string, setUp: string}
              Other:
                attributes: {name: string}
                userInfo: {seedkit.typeName: Triple}
              Odd:
                userInfo: {seedkit.codegen: sometimes}
            """)
        let error = #expect(throws: CodegenError.self) { _ = try SwiftCodeGenerator(model: model) }
        #expect(
            error?.problems == [
                "Odd: userInfo seedkit.codegen must be class or manual, not 'sometimes'",
                "entities Other and Triple would both be the Swift type Triple",
                "Triple.object: 'object' is a member of every typed object; rename the property or mark the entity seedkit.codegen: manual",
                "Triple.up: 'setUp' is also the accessor of setUp; rename one of them",
            ])
    }
}
