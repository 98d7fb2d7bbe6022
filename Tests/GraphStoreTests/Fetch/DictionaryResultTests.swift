// Dictionary results on the org chart: chosen properties through to-ones, distinct values,
// grouping with named aggregates, HAVING, and the errors of misuse.
import Foundation
import Testing

@testable import GraphStore

@Suite struct DictionaryResultTests {
    private func request(
        _ properties: [FetchProperty], groupBy: [String] = [], sort: [FetchSortDescriptor]
    ) -> FetchRequest {
        var request = FetchRequest(entityName: "Person", sortDescriptors: sort)
        request.resultType = .dictionaries
        request.propertiesToFetch = properties
        request.propertiesToGroupBy = groupBy
        return request
    }

    @Test func chosenPropertiesThroughToOnes() throws {
        let fixture = try OrgChartFixture()
        var request = request(
            [.keyPath("name"), .keyPath("manager.name"), .keyPath("organization.name")],
            sort: [FetchSortDescriptor("name")])
        request.predicate = try FetchPredicate(format: "name IN {'Ada', 'Dee'}")
        let rows = try fixture.context.fetchDictionaries(request)
        #expect(
            rows == [
                ["name": .string("Ada"), "organization.name": .string("Acme")],
                ["name": .string("Dee"), "manager.name": .string("Cal"), "organization.name": .string("Acme")],
            ])
        #expect(fixture.context.registeredObjects.isEmpty)
    }

    @Test func distinctValues() throws {
        let fixture = try OrgChartFixture()
        var request = request([.keyPath("age")], sort: [FetchSortDescriptor("age", ascending: false)])
        request.returnsDistinctResults = true
        let ages = try fixture.context.fetchDictionaries(request).map { $0["age"] }
        #expect(ages == [52, 45, 40, 35, 31, 28, 23].map { AttributeValue.integer($0) })
    }

    @Test func groupsWithNamedAggregates() throws {
        let fixture = try OrgChartFixture()
        let rows = try fixture.context.fetchDictionaries(
            request(
                [
                    .keyPath("organization.name"), .aggregate("headcount", .count, of: "self"),
                    .aggregate("salaries", .count, of: "salary"), .aggregate("payroll", .sum, of: "salary"),
                    .aggregate("meanAge", .average, of: "age"), .aggregate("youngest", .minimum, of: "age"),
                    .aggregate("oldest", .maximum, of: "age"), .aggregate("first", .minimum, of: "name"),
                ], groupBy: ["organization.name"], sort: [FetchSortDescriptor("organization.name")]))
        #expect(
            rows == [
                [
                    "organization.name": .string("Acme"), "headcount": .integer(4), "salaries": .integer(4),
                    "payroll": .double(532_000.5), "meanAge": .double(39), "youngest": .integer(28),
                    "oldest": .integer(52), "first": .string("Ada"),
                ],
                [
                    "organization.name": .string("Zenith"), "headcount": .integer(4), "salaries": .integer(3),
                    "payroll": .double(229_000), "meanAge": .double(33.25), "youngest": .integer(23),
                    "oldest": .integer(40), "first": .string("Fay"),
                ],
            ])
    }

    @Test func havingFiltersGroups() throws {
        let fixture = try OrgChartFixture()
        var request = request(
            [.keyPath("manager.name"), .aggregate("meanAge", .average, of: "age")], groupBy: ["manager.name"],
            sort: [FetchSortDescriptor("manager.name")])
        // Mean ages by manager: none 43.5, Ada 38, Cal 31.5, Fay 31.5.
        request.havingPredicate = try FetchPredicate(format: "meanAge > 35")
        #expect(
            try fixture.context.fetchDictionaries(request) == [
                ["meanAge": .double(43.5)], ["manager.name": .string("Ada"), "meanAge": .double(38)],
            ])
        request.havingPredicate = try FetchPredicate(format: "meanAge < 35 AND manager.name != 'Cal'")
        #expect(
            try fixture.context.fetchDictionaries(request) == [
                ["manager.name": .string("Fay"), "meanAge": .double(31.5)]
            ])
    }

    @Test func misuseIsReported() throws {
        let fixture = try OrgChartFixture()
        let notGrouped = request([.keyPath("name")], groupBy: ["age"], sort: [])
        let sumOfText = request([.aggregate("x", .sum, of: "name")], sort: [])
        var havingAlone = request([.keyPath("name")], sort: [])
        havingAlone.havingPredicate = .key("name") == "x"
        let relationship = request([.keyPath("manager")], sort: [])
        for bad in [notGrouped, sumOfText, havingAlone, relationship, FetchRequest(entityName: "Person")] {
            #expect(throws: FetchError.self) { try fixture.context.fetchDictionaries(bad) }
        }
        #expect(throws: FetchError.self) { try fixture.context.fetch(request([.keyPath("name")], sort: [])) }
    }
}
