// Tests of model declarations, resolution and validation: every attribute type and option,
// relationship kinds and delete rules, inheritance, unique constraints, and model errors.
import Foundation
import Testing

@testable import GraphStore

@Suite struct ObjectModelTests {
    @Test func resolvesEveryAttributeTypeAndOption() throws {
        let model = try ModelBuilder("Types")
            .entity("Sample") { sample in
                for type in AttributeType.allCases where type != .transformable {
                    sample.attribute("\(type.rawValue)Value", type)
                }
                sample.attribute("transformableValue", .transformable, transformer: "Data")
                sample.attribute("photo", .binary, externalStorage: true)
                sample.attribute("count", .integer16, optional: false, default: .integer(3), indexed: true)
                sample.attribute("scratch", .string, transient: true)
                sample.attribute(
                    "code", .string,
                    validation: ValidationRules(minimumLength: 2, maximumLength: 8, pattern: "[A-Z]+"))
                sample.attribute(
                    "born", .date,
                    validation: ValidationRules(
                        earliestDate: Date(timeIntervalSince1970: 0), latestDate: Date(timeIntervalSince1970: 1e9)))
                sample.attribute("ratio", .double, validation: ValidationRules(minimum: 0, maximum: 1))
            }
            .build()
        let sample = try #require(model.entity(named: "Sample"))
        #expect(sample.attributes.count == AttributeType.allCases.count + 6)
        #expect(sample.attributes.map(\.name) == sample.attributes.map(\.name).sorted())
        for (index, attribute) in sample.attributes.enumerated() {
            #expect(attribute.index == index)
        }
        let count = try #require(sample.attribute(named: "count"))
        #expect(count.type == .integer16 && !count.isOptional && count.declaration.isIndexed)
        #expect(count.declaration.defaultValue == .integer(3))
        #expect(sample.attribute(named: "photo")?.declaration.allowsExternalStorage == true)
        #expect(sample.attribute(named: "scratch")?.isTransient == true)
        #expect(sample.attribute(named: "code")?.declaration.validation.pattern == "[A-Z]+")
        #expect(sample.attribute(named: "transformableValue")?.declaration.valueTransformerName == "Data")
    }

    @Test func resolvesRelationshipKindsAndInverses() throws {
        let model = try CatalogModel.build()
        let item = try #require(model.entity(named: "Item"))
        let list = try #require(model.entity(named: "ShoppingList"))
        let unit = try #require(item.relationship(named: "unit"))
        #expect(!unit.isToMany)
        let unitItems = try #require(model.inverse(of: unit))
        #expect(unitItems.name == "items" && unitItems.isToMany)
        #expect(unitItems.deleteRule == .deny)
        let tags = try #require(item.relationship(named: "tags"))
        #expect(tags.isToMany && model.inverse(of: tags)?.name == "items")
        let listItems = try #require(list.relationship(named: "items"))
        #expect(listItems.isOrdered)
        #expect(model.inverse(of: listItems)?.name == "lists")
    }

    @Test func inheritsPropertiesAndKeepsSlots() throws {
        let model = try ModelBuilder("Shapes")
            .entity("Shape", abstract: true) { $0.attribute("name", .string) }
            .entity("Polygon", parent: "Shape") { $0.attribute("sides", .integer16) }
            .entity("Square", parent: "Polygon") { $0.attribute("edge", .double) }
            .entity("Circle", parent: "Shape") { $0.attribute("radius", .double) }
            .build()
        let shape = try #require(model.entity(named: "Shape"))
        let square = try #require(model.entity(named: "Square"))
        #expect(shape.isAbstract && shape.isRoot)
        #expect(square.attributes.map(\.name) == ["name", "sides", "edge"])
        #expect(square.attribute(named: "name")?.index == shape.attribute(named: "name")?.index)
        #expect(square.isKind(of: shape) && !shape.isKind(of: square))
        #expect(shape.kindIndices.count == 4 && square.kindIndices == [square.index])
        #expect(model.root(of: square) === shape)
    }

    @Test func reportsEveryProblemAtOnce() throws {
        let error = try #require(throws: ModelError.self) {
            try ModelBuilder("Broken")
                .entity("A") { a in
                    a.attribute("name", .string)
                    a.attribute("name", .integer32)
                    a.attribute("pk", .integer64)
                    a.attribute("size", .integer16, default: .string("big"))
                    a.toOne("b", "Missing")
                    a.toOne("c", "C", inverse: "wrong")
                    a.unique("nothing")
                }
                .entity("C") { c in
                    c.toMany("wrong", "C", inverse: "wrong")
                }
                .build()
        }
        let messages = error.problems.map(\.description)
        #expect(
            messages.contains(
                "A.name: duplicate property name (properties are unique across an entity and its ancestors)"))
        #expect(messages.contains { $0.hasPrefix("A.pk: 'pk' is reserved") })
        #expect(messages.contains("A.size: default value big (string) does not fit type integer16"))
        #expect(messages.contains("A.b: destination entity 'Missing' does not exist"))
        #expect(messages.contains("A.c: inverse 'C.wrong' does not point back to 'A.c'"))
        #expect(messages.contains("A.unique constraint [nothing]: 'nothing' is not an attribute"))
        let cyclic = try #require(throws: ModelError.self) {
            try ModelBuilder("Cycle").entity("D", parent: "E").entity("E", parent: "D").build()
        }
        #expect(cyclic.problems.contains { $0.message.hasPrefix("cyclic inheritance") })
    }

    @Test func rejectsRulesThatDoNotFitTheirType() throws {
        let error = try #require(throws: ModelError.self) {
            try ModelBuilder("Rules")
                .entity("R") { r in
                    r.attribute("flag", .boolean, validation: ValidationRules(minimum: 1))
                    r.attribute("text", .string, validation: ValidationRules(pattern: "(unclosed"))
                    r.attribute("count", .integer32, validation: ValidationRules(minimum: 5, maximum: 1))
                    r.attribute("blob", .string, externalStorage: true)
                }
                .build()
        }
        let messages = Set(error.problems.map(\.description))
        #expect(messages.contains("R.flag: minimum/maximum value rules apply to numeric attributes only"))
        #expect(messages.contains("R.text: regular expression '(unclosed' does not compile"))
        #expect(messages.contains("R.count: minimum value 5.0 exceeds maximum value 1.0"))
        #expect(messages.contains("R.blob: external storage applies to binary attributes only"))
    }

    @Test func rejectsConflictingColumnsInSharedTable() throws {
        let error = try #require(throws: ModelError.self) {
            try ModelBuilder("Clash")
                .entity("Base")
                .entity("Left", parent: "Base") { $0.attribute("size", .string) }
                .entity("Right", parent: "Base") { $0.attribute("size", .double) }
                .build()
        }
        #expect(error.problems.contains { $0.message.contains("column 'size' of table 'Base'") })
    }
}
