// The model is the plan: the same JSON imported with a plan of just files and entities (the
// conventions of docs/PlanFormat.md read from a MagicalRecord-style model) and with the explicit
// plan those conventions stand for gives stores StoreDiff finds equal.
import Foundation
import GraphStore
import SeedImport
import Testing

@testable import DeepCopy

@Suite struct ConventionPlanDiffTests {
    static let model = """
        name: Shop
        entities:
          Customer:
            attributes:
              customerID: integer64
              name: {type: string, userInfo: {mappedKeyName: profile.name}}
              email: {type: string, userInfo: {mappedKeyName: mail, mappedKeyName.1: contact.email}}
              since: {type: date, userInfo: {dateFormat: dd/MM/yyyy}}
            relationships:
              orders: {destination: Order, inverse: customer, toMany: true}
              city: {destination: City, inverse: customers}
            userInfo: {relatedByAttribute: customerID}
          Order:
            attributes: {orderID: integer64, total: double, placed: date}
            relationships:
              customer: {destination: Customer, inverse: orders}
          City:
            attributes: {code: string, name: string}
            relationships:
              customers: {destination: Customer, inverse: city, toMany: true}
            userInfo: {relatedByAttribute: code}
        """

    static let cities = #"[{"code": "LDN", "name": "London"}, {"code": "PAR", "name": "Paris"}]"#
    static let customers = """
        [
          {"customerID": 1, "profile": {"name": "Ada"}, "mail": "ada@example.com", "since": "01/02/2020",
           "city": "LDN", "orders": [{"orderID": 10, "total": 9.5, "placed": 1700000000},
                                     {"orderID": 11, "total": 3, "placed": "2026-01-02T03:04:05Z"}]},
          {"customerID": 2, "profile": {"name": "Bob"}, "mail": "bob@example.com", "city": "PAR",
           "orders": [{"orderID": 12, "total": 1.25, "placed": "2026-02-03T04:05:06GMT"}]},
          {"customerID": 1, "since": "03/04/2021"}
        ]
        """

    static let conventionPlan = """
        model: Shop.yaml
        sources:
          - {file: cities.json, entity: City}
          - {file: customers.json, entity: Customer}
        """

    static let explicitPlan = """
        model: Shop.yaml
        sources:
          - file: cities.json
            entity: City
            key: [code]
            attributes: {code: code, name: name}
          - file: customers.json
            entity: Customer
            key: [customerID]
            attributes:
              customerID: customerID
              name: profile.name
              email: mail
              since: {field: since, date: dd/MM/yyyy}
            relationships:
              city: {field: city, match: code, missing: create}
              orders:
                field: orders
                nested:
                  entity: Order
                  key: [orderID]
                  attributes: {orderID: orderID, total: total, placed: placed}
        """

    @Test func theFileAndEntityPlanGivesTheStoreOfTheExplicitPlan() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("convention-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = [
            "Shop.yaml": Self.model, "cities.json": Self.cities, "customers.json": Self.customers,
            "convention.yaml": Self.conventionPlan, "explicit.yaml": Self.explicitPlan,
        ]
        for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        var stores: [String] = []
        for plan in ["convention", "explicit"] {
            var options = ImportOptions()
            options.store = folder.appendingPathComponent("\(plan).sqlite").path
            let report = try await Importer(
                planFile: folder.appendingPathComponent("\(plan).yaml").path, options: options
            )
            .run()
            #expect(report.errors.isEmpty)
            stores.append(options.store ?? "")
        }
        let convention = try PersistentStore.open(at: stores[0])
        let explicit = try PersistentStore.open(at: stores[1])
        #expect(try StoreDiff(convention, explicit).differences().isEmpty)
        // Not two empty stores: every entity and link is there.
        let context = try ObjectContext(store: convention)
        let ada = try #require(
            try context.fetch(FetchRequest(entityName: "Customer", predicate: .key("customerID") == 1)).first)
        #expect(try context.fetch(FetchRequest(entityName: "Customer")).count == 2)
        #expect(try context.fetch(FetchRequest(entityName: "Order")).count == 3)
        #expect(try context.fetch(FetchRequest(entityName: "City")).count == 2)
        #expect(try ada.related("city")?.get("name", as: String.self) == "London")
        #expect(try ada.get("email", as: String.self) == "ada@example.com")
        #expect(try ada.relatedObjects("orders").count == 2)
    }
}
