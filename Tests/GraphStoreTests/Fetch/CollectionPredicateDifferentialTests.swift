// A seeded differential test: random org charts (nil ages and salaries, people without a
// manager or organization, empty and shared projects) and random collection predicates; the
// SQL fetch and the in-memory evaluator must select the same people, and each predicate must
// survive its description round trip.
import Foundation
import Testing

@testable import GraphStore

@Suite struct CollectionPredicateDifferentialTests {
    private static let formats = [
        "ANY employees.age > %@", "ALL employees.age < %@", "NONE employees.salary >= %@",
        "employees.@count == %@", "employees.@avg.age > %@", "employees.@sum.age < %@",
        "employees.@max.salary > %@", "employees.@min.age <= %@", "manager.employees.@count > %@",
        "ANY employees.manager.age > %@", "ALL employees.organization.name == 'Acme' AND age > %@",
        "SUBQUERY(employees, $e, $e.age > %@ AND $e.salary != nil).@count >= 1",
        "SUBQUERY(projects, $p, $p.budget > %@ AND ANY $p.members.age < 30).@count == 1",
        "ANY projects.budget > %@", "projects.@sum.budget >= %@", "NOT ANY projects.name == 'P1' OR age > %@",
    ]

    /// A random chart of `count` people in three organizations and four projects.
    private func randomChart(_ random: inout SeededGenerator, count: Int) throws -> ObjectContext {
        let context = try ObjectContext(store: PersistentStore.inMemory(model: OrgChartFixture.makeModel()))
        let orgs = try ["Acme", "Zenith", "Empty"].map { name -> ManagedObject in
            let org = try context.insert("Organization")
            try org.set("name", name)
            return org
        }
        let projects = try (0..<4).map { index -> ManagedObject in
            let project = try context.insert("Project")
            try project.set("name", "P\(index)")
            try project.set("budget", Int32.random(in: 0...300, using: &random))
            return project
        }
        var people: [ManagedObject] = []
        for index in 0..<count {
            let person = try context.insert("Person")
            try person.set("name", "N\(index)")
            if Int.random(in: 0..<10, using: &random) > 0 {
                try person.set("age", Int16.random(in: 20...60, using: &random))
            }
            if Bool.random(using: &random) {
                try person.set("salary", Decimal(Int.random(in: 30...120, using: &random) * 1000))
            }
            if !people.isEmpty, Int.random(in: 0..<10, using: &random) < 7 {
                try person.setRelated("manager", to: people[Int.random(in: 0..<people.count, using: &random)])
            }
            if Int.random(in: 0..<10, using: &random) > 0 {
                try person.setRelated("organization", to: orgs[Int.random(in: 0..<2, using: &random)])
            }
            for project in projects.prefix(3) where Int.random(in: 0..<3, using: &random) == 0 {
                try project.add(person, to: "members")
            }
            people.append(person)
        }
        try context.save()
        context.reset()
        return context
    }

    @Test func evaluatorAgreesWithSQL() throws {
        var random = SeededGenerator(seed: 0xC011_EC71)
        let context = try randomChart(&random, count: 40)
        let everyone = try context.fetch(
            FetchRequest(entityName: "Person", sortDescriptors: [FetchSortDescriptor("name")]))
        var selective = 0
        for _ in 0..<120 {
            let first = try FetchPredicate(
                format: Self.formats[Int.random(in: 0..<Self.formats.count, using: &random)],
                Int.random(in: 0...60, using: &random) * (Bool.random(using: &random) ? 1 : 1000))
            let second = try FetchPredicate(
                format: Self.formats[Int.random(in: 0..<Self.formats.count, using: &random)],
                Int.random(in: 0...300, using: &random))
            let predicate: FetchPredicate
            switch Int.random(in: 0..<4, using: &random) {
            case 0: predicate = first
            case 1: predicate = first && second
            case 2: predicate = first || !second
            default: predicate = !first
            }
            let fetched = try context.fetch(FetchRequest(entityName: "Person", predicate: predicate)).map(\.objectID)
            let evaluated = try everyone.filter { try PredicateEvaluator.evaluate(predicate, on: $0) }.map(\.objectID)
            #expect(Set(fetched) == Set(evaluated), "\(predicate)")
            if !fetched.isEmpty && fetched.count < everyone.count { selective += 1 }
            #expect(try FetchPredicate(format: predicate.description) == predicate, "\(predicate)")
        }
        #expect(selective > 60, "most predicates should select some people but not all")
    }
}
