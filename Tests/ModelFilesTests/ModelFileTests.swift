// Tests of YAML model files: parsing every option, and errors with key paths.
import Foundation
import Testing

@testable import GraphStore
import ModelFiles

@Suite struct ModelFileTests {
    static let yaml = """
        name: Catalog
        entities:
          Unit:
            attributes:
              name: {type: string, optional: false}
            relationships:
              items: {destination: Item, inverse: unit, toMany: true, deleteRule: deny}
            unique: [[name]]
          Item:
            attributes:
              sku: {type: string, optional: false, pattern: "[A-Z]+-[0-9]+"}
              name: string
              price: {type: decimal, default: "12.50", min: 0}
              quantity: {type: integer32, default: 4, max: 1000}
              listed: {type: boolean, default: true}
              added: {type: date, default: "2026-11-01T00:00:00Z", earliest: "2000-01-01T00:00:00Z"}
              photo: {type: binary, externalStorage: true, default: "AQID"}
              ident: {type: uuid, default: "6BA7B810-9DAD-11D1-80B4-00C04FD430C8"}
              link: {type: uri, default: "https://example.com/a"}
            relationships:
              unit: {destination: Unit, inverse: items, userInfo: {relatedByAttribute: name}}
            unique: [[sku]]
            indexes: {byName: [name, "quantity desc"]}
            userInfo: {mappedKeyName: item}
        fetchRequests:
          cheap: {entity: Item, predicate: "price < $LIMIT"}
        """

    @Test func parsesYAMLWithEveryOption() throws {
        let model = try ModelFile.parse(yaml: Self.yaml, source: "catalog.yaml").objectModel()
        let item = try #require(model.entity(named: "Item"))
        #expect(item.attribute(named: "price")?.declaration.defaultValue == .decimal(Decimal(string: "12.50")!))
        #expect(item.attribute(named: "quantity")?.declaration.defaultValue == .integer(4))
        #expect(item.attribute(named: "quantity")?.declaration.validation.maximum == 1000)
        #expect(
            item.attribute(named: "added")?.declaration.defaultValue
                == .date(Date(timeIntervalSince1970: 1_793_491_200)))
        #expect(item.attribute(named: "photo")?.declaration.defaultValue == .binary(Data([1, 2, 3])))
        #expect(
            item.attribute(named: "ident")?.declaration.defaultValue
                == .uuid(UUID(uuidString: "6BA7B810-9DAD-11D1-80B4-00C04FD430C8")!))
        #expect(item.attribute(named: "name")?.isOptional == true)
        #expect(item.relationship(named: "unit")?.declaration.userInfo == ["relatedByAttribute": "name"])
        #expect(
            item.indexes == [
                IndexDescription(
                    name: "byName", elements: [IndexElement("name"), IndexElement("quantity", ascending: false)])
            ])
        #expect(item.userInfo == ["mappedKeyName": "item"])
        #expect(model.entity(named: "Unit")?.relationship(named: "items")?.deleteRule == .deny)
        #expect(model.fetchRequestTemplate(named: "cheap")?.predicateFormat == "price < $LIMIT")
    }

    @Test func malformedEntriesNameTheirKeyPath() throws {
        let bad = "name: M\nentities:\n  Item:\n    attributes:\n      price: {type: money}\n"
        let error = try #require(throws: ModelError.self) {
            _ = try ModelFile.parse(yaml: bad, source: "bad.yaml")
        }
        #expect(error.source == "bad.yaml")
        #expect(error.description.contains("entities.Item.attributes.price"))
        let wrongDefault =
            "name: M\nentities:\n  Item:\n    attributes:\n      count: {type: integer16, default: \"x\"}\n"
        let defaultError = try #require(throws: ModelError.self) {
            _ = try ModelFile.parse(yaml: wrongDefault, source: "d.yaml").objectModel(source: "d.yaml")
        }
        #expect(defaultError.problems.first?.entity == "Item")
        #expect(defaultError.problems.first?.property == "count")
    }
}
