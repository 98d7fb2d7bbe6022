// Diagrams of models: the catalog's Mermaid class diagram against its expected text (the one the
// README shows), Grocery Dude's inheritance and abstract parent, multiplicities of required and
// bounded relationships and of a relationship without inverse, and DOT that Graphviz accepts.
import Foundation
import GraphStore
import SeedKitCodegen
import Testing

@Suite struct ModelDiagramTests {
    static let catalogMermaid = """
        classDiagram
            class Item {
                date? added
                boolean? listed
                string name
                string? notes
                double? price
                integer32? quantity
                string sku
            }
            class Location {
                string aisle
            }
            class ShoppingList {
                string code
                date? created
                string? title
            }
            class Tag {
                string name
            }
            class Unit {
                string name
            }
            Item "0..*" -- "0..*" ShoppingList : lists / items (ordered)
            Item "0..*" -- "0..1" Location : location / items
            Item "0..*" -- "0..*" Tag : tags / items
            Item "0..*" -- "0..1" Unit : unit / items

        """

    @Test func theCatalogsMermaidDiagramIsTheExpectedText() throws {
        let catalog = try SwiftCodeGeneratorTests.load("SeedData/Catalog/Catalog.yaml")
        #expect(ModelDiagram.mermaid(catalog) == Self.catalogMermaid)
    }

    @Test func theReadmeShowsTheCatalogsDiagram() throws {
        let readme = try String(
            contentsOf: SwiftCodeGeneratorTests.repository.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("```mermaid\n" + Self.catalogMermaid + "```\n"))
    }

    @Test func inheritanceAbstractEntitiesAndMultiplicitiesAreDrawn() throws {
        let grocery = try SwiftCodeGeneratorTests.load("SeedData/GroceryDude/GroceryDude.xcdatamodeld")
        let text = ModelDiagram.mermaid(grocery)
        #expect(text.contains("    class Location {\n        <<abstract>>\n        string? summary\n    }\n"))
        // A sub-entity shows only what it declares; the parent shows the rest.
        #expect(text.contains("    class LocationAtHome {\n        string? storedIn\n    }\n"))
        #expect(text.contains("    Location <|-- LocationAtHome\n    Location <|-- LocationAtShop\n"))
        #expect(text.contains("    Item \"0..*\" -- \"0..1\" LocationAtHome : locationAtHome / items\n"))

        let model = try SwiftCodeGeneratorTests.model(
            """
            name: Org
            entities:
              Person:
                relationships:
                  manager: {destination: Person, inverse: reports}
                  reports: {destination: Person, inverse: manager, toMany: true}
                  badge: {destination: Badge, inverse: owner, optional: false}
                  mentors: {destination: Person, toMany: true, ordered: true, min: 1, max: 3}
              Badge:
                attributes: {code: {type: string, optional: false}}
                relationships:
                  owner: {destination: Person, inverse: badge}
                  visits: {destination: Visit, toMany: true, optional: false}
              Visit: {}
            """)
        let org = ModelDiagram.mermaid(model)
        #expect(org.contains("    class Visit\n"))
        #expect(org.contains("    Badge \"1\" -- \"0..1\" Person : owner / badge\n"))
        #expect(org.contains("    Badge --> \"1..*\" Visit : visits\n"))
        #expect(org.contains("    Person \"0..*\" -- \"0..1\" Person : manager / reports\n"))
        #expect(org.contains("    Person --> \"1..3\" Person : mentors (ordered)\n"))
        #expect(!org.contains("reports / manager"))
    }

    @Test(
        .enabled(if: executable("dot") != nil, "Graphviz's dot is not installed (apt-get install graphviz)"),
        arguments: ["SeedData/Catalog/Catalog.yaml", "SeedData/GroceryDude/GroceryDude.xcdatamodeld"])
    func graphvizDrawsTheDOTText(_ path: String) throws {
        let text = ModelDiagram.dot(try SwiftCodeGeneratorTests.load(path))
        let dot = try #require(Self.executable("dot"))
        let process = Process()
        process.executableURL = dot
        process.arguments = ["-Tsvg"]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let svg = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let messages = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(messages)")
        #expect(messages.isEmpty, "\(messages)")
        #expect(svg.contains("<svg"))
        #expect(svg.contains(">Item</text>"))
    }

    /// The path of `name` on `PATH`, if it is there.
    static func executable(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}
