// Fetch SQL against a real in-memory store: each operator and attribute type, string options
// with non-ASCII text, nil tests, to-one key paths, sorting, limits, sub-entities, and errors.
import Foundation
import Testing

@testable import GraphStore

@Suite struct FetchQueryBuilderTests {
    private static let day: TimeInterval = 86_400

    /// Units 1 (kg, aisle A1) and 2 (g, no location); products 1…6, 5 and 6 perishable.
    private func catalog() throws -> FetchFixture {
        var fixture = try FetchFixture()
        try fixture.insert("Location", 1, ["aisle": .string("A1")])
        try fixture.insert("Unit", 1, ["name": .string("kg"), "location": .integer(1)])
        try fixture.insert("Unit", 2, ["name": .string("g")])
        let rows: [(String?, Double, Int64, Bool, Double, String?, String, Int64?)] = [
            ("Äpfel", 2.49, 20, true, 0, nil, "1.10", 1),
            ("apfelsaft", 1.99, 35, false, 1, "fresh", "2.5", 2),
            ("Birne", 0.5, 10, true, 2, "", "10", nil),
            ("Straße", 10, 50, false, 3, "notes", "-1", 1),
            ("ÉCOLE", 5, 30, true, 4, nil, "1.1", nil),
            (nil, 7.25, 40, false, 5, "x*y?", "100.5", 2),
        ]
        for (index, row) in rows.enumerated() {
            let pk = Int64(index + 1)
            try fixture.insert(
                pk >= 5 ? "Perishable" : "Product", pk,
                [
                    "name": row.0.map(AttributeValue.string), "price": .double(row.1), "quantity": .integer(row.2),
                    "listed": .boolean(row.3), "added": .date(Date(timeIntervalSince1970: row.4 * Self.day)),
                    "notes": row.5.map(AttributeValue.string),
                    "cost": Decimal(string: row.6).map(AttributeValue.decimal),
                    "unit": row.7.map(AttributeValue.integer),
                ])
        }
        return fixture
    }

    @Test func comparisonOperators() throws {
        let fixture = try catalog()
        #expect(try fixture.pks(format: "quantity == 20") == [1])
        #expect(try fixture.pks(format: "quantity != 20") == [2, 3, 4, 5, 6])
        #expect(try fixture.pks(format: "price < 2") == [2, 3])
        #expect(try fixture.pks(format: "price <= 2.49") == [1, 2, 3])
        #expect(try fixture.pks(format: "quantity > 35") == [4, 6])
        #expect(try fixture.pks(format: "quantity >= 35") == [2, 4, 6])
        #expect(try fixture.pks(format: "quantity BETWEEN {20, 35}") == [1, 2, 5])
        #expect(try fixture.pks(format: "quantity IN %@", [10, 50, 99]) == [3, 4])
        #expect(try fixture.pks(format: "quantity IN {}") == [])
        #expect(try fixture.pks(format: "price > quantity") == [])
        #expect(try fixture.pks(format: "5 < price") == [4, 6])
        #expect(try fixture.pks(format: "quantity == 20.0") == [1])
        #expect(try fixture.pks(format: "price == %@", Decimal(string: "0.5") ?? 0) == [3])
    }

    @Test func stringOperatorsAndOptions() throws {
        let fixture = try catalog()
        #expect(try fixture.pks(format: "name BEGINSWITH 'apf'") == [2])
        #expect(try fixture.pks(format: "name BEGINSWITH[c] 'apf'") == [2])
        #expect(try fixture.pks(format: "name BEGINSWITH[cd] 'apf'") == [1, 2])
        #expect(try fixture.pks(format: "name BEGINSWITH[d] 'Apf'") == [1])
        #expect(try fixture.pks(format: "name ENDSWITH 'ße'") == [4])
        #expect(try fixture.pks(format: "name ENDSWITH[c] 'SSE'") == [4])
        #expect(try fixture.pks(format: "name ENDSWITH ''") == [1, 2, 3, 4, 5])
        #expect(try fixture.pks(format: "name CONTAINS 'fel'") == [1, 2])
        #expect(try fixture.pks(format: "name CONTAINS[cd] 'COL'") == [5])
        #expect(try fixture.pks(format: "name ==[cd] 'ecole'") == [5])
        #expect(try fixture.pks(format: "name == 'ecole'") == [])
        #expect(try fixture.pks(format: "name ==[c] 'strasse'") == [4])
        #expect(try fixture.pks(format: "name LIKE 'Bir?e'") == [3])
        #expect(try fixture.pks(format: "name LIKE[c] '*fel*'") == [1, 2])
        #expect(try fixture.pks(format: "name LIKE[cd] 'a*'") == [1, 2])
        #expect(try fixture.pks(format: "notes LIKE 'x\\\\*y\\\\?'") == [6])
        #expect(try fixture.pks(format: "name IN[c] {'birne', 'ÉCOLE'}") == [3, 5])
        #expect(try fixture.pks(format: "name <[c] 'b'") == [2])
        #expect(try fixture.pks(format: "name < 'B'") == [])
        #expect(try fixture.pks(format: "name > 'Z'") == [1, 2, 5])
    }

    @Test func nilSemantics() throws {
        let fixture = try catalog()
        #expect(try fixture.pks(format: "notes == nil") == [1, 5])
        #expect(try fixture.pks(format: "notes != nil") == [2, 3, 4, 6])
        #expect(try fixture.pks(format: "notes != 'fresh'") == [1, 3, 4, 5, 6])
        #expect(try fixture.pks(format: "NOT notes == 'fresh'") == [1, 3, 4, 5, 6])
        #expect(try fixture.pks(format: "NOT notes BEGINSWITH 'n'") == [1, 2, 3, 5, 6])
        #expect(try fixture.pks(format: "NOT (notes < 'g' OR quantity > 30)") == [1, 5])
        #expect(try fixture.pks(format: "notes IN {'fresh', nil}") == [1, 2, 5])
        #expect(try fixture.pks(format: "NOT notes IN {'fresh'}") == [1, 3, 4, 5, 6])
        #expect(try fixture.pks(format: "notes == name") == [])
        #expect(try fixture.pks(format: "unit == nil") == [3, 5])
        #expect(try fixture.pks(format: "nil == nil") == [1, 2, 3, 4, 5, 6])
    }

    @Test func attributeTypes() throws {
        var fixture = try catalog()
        let code = UUID()
        let link = try #require(URL(string: "https://example.com/ä"))
        try fixture.insert(
            "Product", 7,
            ["code": .uuid(code), "link": .uri(link), "photo": .binary(Data([1, 2])), "listed": .boolean(true)])
        #expect(try fixture.pks(format: "listed == YES") == [1, 3, 5, 7])
        #expect(try fixture.pks(format: "listed == 0") == [2, 4, 6])
        #expect(try fixture.pks(format: "added >= %@", Date(timeIntervalSince1970: 3 * Self.day)) == [4, 5, 6])
        #expect(
            try fixture.pks(
                format: "added BETWEEN %@",
                [Date(timeIntervalSince1970: Self.day), Date(timeIntervalSince1970: 2 * Self.day)])
                == [2, 3])
        #expect(try fixture.pks(format: "cost > 2") == [2, 3, 6])
        #expect(try fixture.pks(format: "cost == 1.1") == [1, 5])
        #expect(try fixture.pks(format: "cost < %@", Decimal(string: "-0.5") ?? 0) == [4])
        #expect(try fixture.pks(format: "code == %@", code) == [7])
        #expect(try fixture.pks(format: "code == %@", code.uuidString) == [7])
        #expect(try fixture.pks(format: "link == %@", link) == [7])
        #expect(try fixture.pks(format: "link BEGINSWITH 'https:'") == [7])
        #expect(try fixture.pks(format: "photo == %@", Data([1, 2])) == [7])
    }

    @Test func relationshipsAndKeyPaths() throws {
        let fixture = try catalog()
        let kilogram = try fixture.id("Unit", 1)
        #expect(try fixture.pks(format: "unit.name == 'kg'") == [1, 4])
        #expect(try fixture.pks(format: "unit.name != 'kg'") == [2, 3, 5, 6])
        #expect(try fixture.pks(format: "unit.location.aisle == 'A1'") == [1, 4])
        #expect(try fixture.pks(format: "unit.location == nil") == [2, 3, 5, 6])
        #expect(try fixture.pks(format: "unit == %@", kilogram) == [1, 4])
        #expect(try fixture.pks(format: "unit IN %@", [kilogram, try fixture.id("Unit", 2)]) == [1, 2, 4, 6])
        #expect(try fixture.pks(format: "SELF == %@", try fixture.id("Perishable", 5)) == [5])
        #expect(try fixture.pks("Unit", format: "location != nil") == [1])
        let query = try FetchQueryBuilder(
            layout: fixture.store.layout,
            request: FetchRequest(
                entityName: "Product",
                predicate: try FetchPredicate(format: "unit.name == 'kg' AND unit.location.aisle == 'A1'"))
        ).selectQuery(columns: ["t0.pk"])
        #expect(query.sql.components(separatedBy: "LEFT JOIN").count == 3)
    }

    @Test func sortingLimitsAndOffsets() throws {
        let fixture = try catalog()
        var request = FetchRequest(entityName: "Product", sortDescriptors: [FetchSortDescriptor("name")])
        #expect(try fixture.pks(request) == [6, 3, 4, 2, 1, 5])
        request.sortDescriptors = [FetchSortDescriptor("name", options: [.caseInsensitive, .diacriticInsensitive])]
        #expect(try fixture.pks(request) == [6, 1, 2, 3, 5, 4])
        request.sortDescriptors = [FetchSortDescriptor("unit.name", ascending: false), FetchSortDescriptor("price")]
        #expect(try fixture.pks(request) == [1, 4, 2, 6, 3, 5])
        request.sortDescriptors = [FetchSortDescriptor("cost", ascending: false)]
        #expect(try fixture.pks(request) == [6, 3, 2, 1, 5, 4])
        request.fetchLimit = 2
        request.fetchOffset = 1
        #expect(try fixture.pks(request) == [3, 2])
        request.fetchLimit = nil
        #expect(try fixture.pks(request) == [3, 2, 1, 5, 4])
        let builder = try FetchQueryBuilder(layout: fixture.store.layout, request: request)
        #expect(try fixture.integers(builder.selectQuery(columns: ["t0.pk"], applyingLimit: false)).count == 6)
        request.fetchLimit = 3
        request.predicate = try FetchPredicate(format: "unit.name == 'kg' OR price > 5")
        let counting = try FetchQueryBuilder(layout: fixture.store.layout, request: request)
        #expect(try fixture.integers(counting.countQuery()) == [2])
        #expect(try fixture.integers(counting.countQuery(applyingLimit: false)) == [3])
        #expect(try !counting.countQuery().sql.contains("ORDER BY"))
    }

    @Test func subentities() throws {
        let fixture = try catalog()
        #expect(try fixture.pks("Perishable", .truePredicate) == [5, 6])
        var request = FetchRequest(entityName: "Product")
        request.includesSubentities = false
        #expect(try fixture.pks(request) == [1, 2, 3, 4])
        let all = try FetchQueryBuilder(layout: fixture.store.layout, request: FetchRequest(entityName: "Product"))
        #expect(try !all.selectQuery(columns: ["t0.pk"]).sql.contains("ent"))
        #expect(try fixture.pks("Perishable", format: "expires == nil AND price > 6") == [6])
    }

    @Test func queriesBindValuesAndQuoteIdentifiers() throws {
        let fixture = try catalog()
        let request = FetchRequest(
            entityName: "Product",
            predicate: try FetchPredicate(format: "name == %@ AND unit.name == 'kg'", "x' OR 1=1 --"))
        let query = try FetchQueryBuilder(layout: fixture.store.layout, request: request).selectQuery(columns: ["t0.pk"]
        )
        #expect(!query.sql.contains("x'"))
        #expect(!query.sql.contains("kg"))
        #expect(query.sql.contains(#"FROM "Product" t0 LEFT JOIN "Unit" t1 ON t1.pk = t0."unit""#))
        #expect(query.bindings == [.string("x' OR 1=1 --"), .string("kg")])
        #expect(try fixture.integers(query) == [])
    }

    @Test func errors() throws {
        let model = try FetchFixture.makeModel()
        let layout = StoreLayout(model: model, rules: SeedKitLayout())
        func build(_ format: String, _ arguments: any PredicateArgument..., entity: String = "Product") throws {
            _ = try FetchQueryBuilder(
                layout: layout,
                request: FetchRequest(
                    entityName: entity, predicate: try FetchPredicate(format: format, argumentArray: arguments)))
        }
        #expect(throws: FetchError.unknownEntity("Nope")) { try build("TRUEPREDICATE", entity: "Nope") }
        #expect(throws: FetchError.unknownKeyPath(entity: "Product", keyPath: "foo")) { try build("foo == 1") }
        #expect(throws: FetchError.unknownKeyPath(entity: "Product", keyPath: "name.length")) {
            try build("name.length == 1")
        }
        #expect(throws: FetchError.unknownKeyPath(entity: "Product", keyPath: "expires")) {
            try build("expires == nil")
        }
        #expect(throws: FetchError.toManyKeyPath(entity: "Product", keyPath: "tags.name", relationship: "tags")) {
            try build("tags.name == 'x'")
        }
        #expect(throws: FetchError.self) { try build("scratch == 'x'") }
        #expect(throws: FetchError.self) { try build("added == 'yesterday'") }
        #expect(throws: FetchError.self) { try build("name == 5") }
        #expect(throws: FetchError.self) { try build("price BEGINSWITH '1'") }
        #expect(throws: FetchError.self) { try build("unit < %@", try FetchFixture().id("Unit", 1)) }
        #expect(throws: FetchError.self) { try build("unit == %@", try FetchFixture().id("Location", 1)) }
        #expect(throws: FetchError.self) { try build("code == 'not a uuid'") }
        #expect(throws: FetchError.self) { try build("name == unit") }
        #expect(throws: FetchError.self) { try build("quantity BETWEEN {1}") }
        #expect(throws: FetchError.self) { try build("quantity IN 3") }
        #expect(throws: FetchError.unsubstitutedVariable("LIMIT")) { try build("price < $LIMIT") }
        var request = FetchRequest(entityName: "Product", sortDescriptors: [FetchSortDescriptor("unit")])
        #expect(throws: FetchError.self) { _ = try FetchQueryBuilder(layout: layout, request: request) }
        request.sortDescriptors = []
        request.fetchOffset = -1
        #expect(throws: FetchError.invalidRequest("negative fetch offset")) {
            _ = try FetchQueryBuilder(layout: layout, request: request)
        }
        let message = FetchError.unknownKeyPath(entity: "Item", keyPath: "foo").description
        #expect(message == #"unknown key path "Item.foo""#)
    }
}
