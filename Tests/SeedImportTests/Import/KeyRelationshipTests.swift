// Keys and matches through to-one relationships (issue 18, point 11): an order line keyed by its
// order and its product (`key: [order, product]`), each matched through its destination's key,
// and shipments referring to order lines by `match: [order, product]` — in a store the run
// creates (as rows and through objects) and in one that holds data: the links, the update on a
// second import (no duplicates), repeated keys named with both records, the relationships'
// `missing:` policies, and the plan errors found before anything runs.
import Foundation
import GraphStore
import ModelFiles
import Testing

@testable import SeedImport

@Suite struct KeyRelationshipTests {
    static let model = """
        name: Orders
        entities:
          Order:
            attributes: {orderID: {type: integer64, optional: false}, customer: string}
            unique: [[orderID]]
            relationships: {lines: {destination: OrderDetail, inverse: order, toMany: true}}
          Product:
            attributes: {productID: {type: integer64, optional: false}, name: string}
            unique: [[productID]]
            relationships: {lines: {destination: OrderDetail, inverse: product, toMany: true}}
          OrderDetail:
            attributes: {quantity: integer32}
            relationships:
              order: {destination: Order, inverse: lines}
              product: {destination: Product, inverse: lines}
              shipments: {destination: Shipment, inverse: line, toMany: true}
          Shipment:
            attributes: {code: string}
            unique: [[code]]
            relationships: {line: {destination: OrderDetail, inverse: shipments}}

        """

    static let orders = "orderID,customer\n10248,VINET\n10249,TOMSP\n"
    static let products = "productID,name\n11,Queso\n42,Mozzarella\n"
    static let details = "orderID,productID,quantity\n10248,11,12\n10248,42,10\n10249,11,9\n10249,72,40\n"
    static let shipments = """
        [{"code": "S1", "line": {"order": 10248, "product": 42}},
         {"code": "S2", "line": {"order": 10249, "product": 72}}]
        """

    static let detailSource = """
        {file: details.csv, entity: OrderDetail, key: [order, product], onConflict: ONCONFLICT,
             attributes: {quantity: quantity},
             relationships: {order: {field: orderID, missing: reject}, product: {field: productID, missing: create}}}
        """

    /// A folder with the model, the files and `plan.yaml`: orders, products, order lines
    /// (`onConflict` as given), shipments.
    static func fixture(
        details: String = details, onConflict: String = "update", skip: Bool = false
    ) throws -> ImportFixture {
        let fixture = try ImportFixture()
        try fixture.write("Orders.yaml", model)
        try fixture.write("orders.csv", orders)
        try fixture.write("products.csv", products)
        try fixture.write("details.csv", details)
        try fixture.write("shipments.json", shipments)
        try fixture.write(
            "plan.yaml",
            """
            model: Orders.yaml
            store: Orders.sqlite
            batchSize: 2
            \(skip ? "onError: skip" : "")
            sources:
              - {file: orders.csv, entity: Order, key: [orderID]}
              - {file: products.csv, entity: Product, key: [productID]}
              - \(detailSource.replacingOccurrences(of: "ONCONFLICT", with: onConflict))
              - {file: shipments.json, entity: Shipment, key: [code], attributes: {code: code},
                 relationships: {line: {match: [order, product], missing: reject}}}

            """)
        return fixture
    }

    /// The order lines as `order/product quantity shipments`, and the shipments as `code order/product`.
    static func contents(_ fixture: ImportFixture) throws -> [String] {
        let store = fixture.path("Orders.sqlite")
        return try ImportFixture.rows(
            store,
            """
            SELECT o.orderID || '/' || p.productID, d.quantity,
              (SELECT group_concat(code) FROM (SELECT code FROM Shipment s WHERE s.line = d.pk ORDER BY code))
            FROM OrderDetail d LEFT JOIN "Order" o ON o.pk = d."order" LEFT JOIN Product p ON p.pk = d.product
            ORDER BY o.orderID, p.productID
            """)
    }

    static let expected = ["10248/11|12|NULL", "10248/42|10|S1", "10249/11|9|NULL", "10249/72|40|S2"]

    @Test(arguments: FreshStoreReferenceTests.Target.allCases)
    func linesKeyedByOrderAndProductLinkAndUpdate(target: FreshStoreReferenceTests.Target) async throws {
        let fixture = try Self.fixture()
        let report = try await Self.run(fixture, into: target)
        #expect(report.errors.isEmpty)
        #expect(report.entities["OrderDetail"]?.inserted == 4)
        // Product 72 is created for the line naming it (missing: create).
        #expect(report.entities["Product"]?.inserted == 3)
        #expect(report.entities["Shipment"]?.inserted == 2)
        #expect(try Self.contents(fixture) == Self.expected)

        // A second import with new quantities updates the lines it finds by order and product.
        try fixture.write("details.csv", "orderID,productID,quantity\n10248,11,13\n10249,72,41\n10250,11,1\n")
        try fixture.write("orders.csv", Self.orders + "10250,VICTE\n")
        let again = try await fixture.run("plan.yaml")
        #expect(again.errors.isEmpty)
        #expect(again.entities["OrderDetail"]?.inserted == 1)
        #expect(again.entities["OrderDetail"]?.updated == 2)
        #expect(again.entities["Shipment"]?.inserted == 0)
        #expect(
            try Self.contents(fixture) == [
                "10248/11|13|NULL", "10248/42|10|S1", "10249/11|9|NULL", "10249/72|41|S2", "10250/11|1|NULL",
            ])
    }

    /// Runs `plan.yaml` into `target` (FreshStoreReferenceTests' targets).
    static func run(_ fixture: ImportFixture, into target: FreshStoreReferenceTests.Target) async throws
        -> ImportReport
    {
        let options = try await target.options(
            for: fixture, model: "Orders.yaml", store: "Orders.sqlite", entity: "Product")
        return try await fixture.run("plan.yaml", options: options)
    }

    @Test(arguments: FreshStoreReferenceTests.Target.allCases)
    func aRepeatedLineNamesBothRecords(target: FreshStoreReferenceTests.Target) async throws {
        let fixture = try Self.fixture(
            details: Self.details + "10248,42,99\n", onConflict: "fail", skip: true)
        let report = try await Self.run(fixture, into: target)
        #expect(report.errors.count == 1)
        let error = try #require(report.errors.first)
        #expect(error.line == 6)
        #expect(error.message.contains("OrderDetail with key 10248, 42 already exists"))
        #expect(
            error.message.contains(
                "first written by the record at \(fixture.path("details.csv")):3:1 (byte 39, record 2)"))
        #expect(try Self.contents(fixture) == Self.expected)
    }

    /// With a key index of one key per lookup, the lines it cannot hold are set aside and found
    /// in the store after the load, through their order and product.
    @Test func aKeyIndexTooSmallForTheLinesFindsThemInTheStore() async throws {
        let fixture = try Self.fixture(
            details: Self.details + "10248,42,11\n10249,11,8\n", onConflict: "update", skip: true)
        var options = ImportOptions()
        options.limits.keysPerLookup = 1
        let report = try await fixture.run("plan.yaml", options: options)
        #expect(report.errors.isEmpty)
        #expect(report.entities["OrderDetail"]?.inserted == 4)
        #expect(
            try Self.contents(fixture) == ["10248/11|12|NULL", "10248/42|11|S1", "10249/11|8|NULL", "10249/72|40|S2"])

        // Into a new store, a repeated line names the record that wrote it first.
        try FileManager.default.removeItem(atPath: fixture.path("Orders.sqlite"))
        try fixture.write("details.csv", Self.details + "10249,72,40\n")
        try fixture.write(
            "plan.yaml",
            try String(contentsOfFile: fixture.path("plan.yaml"), encoding: .utf8)
                .replacingOccurrences(of: "onConflict: update", with: "onConflict: fail"))
        let failing = try await fixture.run("plan.yaml", options: options)
        #expect(failing.errors.map(\.line) == [6])
        #expect(
            failing.errors.last?.message.hasSuffix(
                "first written by the record at \(fixture.path("details.csv")):5:1 (byte 62, record 4)") == true)
    }

    @Test(arguments: FreshStoreReferenceTests.Target.allCases)
    func aLineOfAMissingOrderIsRefused(target: FreshStoreReferenceTests.Target) async throws {
        let fixture = try Self.fixture(details: Self.details + "10300,11,5\n", skip: true)
        let report = try await Self.run(fixture, into: target)
        #expect(report.errors.map { "\($0.line) \($0.field ?? "-")" } == ["6 orderID"])
        #expect(
            report.errors.first?.message
                == "no Order with orderID = 10300 for relationship order (missing: reject)")
        #expect(report.entities["OrderDetail"]?.inserted == 4)
        #expect(try Self.contents(fixture) == Self.expected)
    }

    @Test(arguments: FreshStoreReferenceTests.Target.allCases)
    func aShipmentOfAMissingLineIsRefused(target: FreshStoreReferenceTests.Target) async throws {
        let fixture = try Self.fixture(skip: true)
        try fixture.write("shipments.json", #"[{"code": "S3", "line": {"order": 10249, "product": 42}}]"#)
        let report = try await Self.run(fixture, into: target)
        #expect(report.errors.count == 1)
        #expect(
            report.errors.first?.message
                == "no OrderDetail with order = 10249, product = 42 for relationship line (missing: reject)")
        #expect(report.entities["Shipment"]?.inserted == 0)
    }

    @Test func aLineWithoutItsOrderHasNoKey() async throws {
        let fixture = try Self.fixture(details: "orderID,productID,quantity\n,11,12\n", skip: true)
        let report = try await fixture.run("plan.yaml")
        // The shipments then name lines that do not exist.
        #expect(report.errors.map { "\($0.line) \($0.field ?? "-")" } == ["2 orderID", "1 line", "2 line"])
        #expect(report.errors.first?.message == "the key relationship OrderDetail.order has no value")
        #expect(report.entities["OrderDetail"]?.inserted == 0)
    }

    @Test func keysNamingRelationshipsAreCheckedBeforeTheRun() throws {
        let fixture = try Self.fixture()
        try fixture.write(
            "bad.yaml",
            """
            model: Orders.yaml
            store: Orders.sqlite
            sources:
              - file: orders.csv
                entity: Order
                key: [lines]
              - file: details.csv
                entity: OrderDetail
                key: [order, product]
                attributes: {quantity: quantity}
                relationships: {order: {field: orderID, missing: ignore}}
              - file: shipments.json
                entity: Shipment
                relationships: {line: {match: [order, shipments], missing: create}}

            """)
        let file = try PlanFile.load(from: fixture.path("bad.yaml"))
        let model = try ModelLoader.load(from: fixture.path("Orders.yaml"))
        let problems = file.validate(model: model, checksFiles: false).map {
            "\($0.position.map(\.description) ?? "-") \($0.message)"
        }
        #expect(
            problems == [
                "6:11 'lines' is a to-many relationship: a key names attributes and to-one relationships",
                "9:11 key relationship 'order' has missing: ignore, which would leave a record without its key: "
                    + "use missing: create or reject",
                "9:18 key relationship 'product' is not mapped: add it to relationships",
                "14:36 missing: create cannot insert a OrderDetail matched through its relationship 'order': "
                    + "use missing: reject or ignore",
                "14:43 'shipments' is a to-many relationship of OrderDetail: a match names attributes and to-one "
                    + "relationships",
            ])
    }
}
