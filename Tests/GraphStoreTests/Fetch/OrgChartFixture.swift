// The org chart the collection-predicate, prefetch, dictionary, template and batch tests share:
// people with a manager and employees (to-one ↔ to-many on one table), organizations with people
// (cascade) and a leader (one-to-one), and projects with members (many-to-many, a join table).
//
//   Acme (leader Ada)                      Zenith (leader Fay)               Empty (no one)
//   Ada 52 250000 ─┬─ Bea 31 98000.50      Fay 35 91000 ─┬─ Gus 40 (no salary)
//                  └─ Cal 45 120000 ─┬─ Dee 28 64000     └─ Hal 23 50000
//                                    └─ Éli 35 88000 (Zenith)
//   Projects: Apollo 100 {Bea, Dee}, Borealis 250 {Cal, Dee, Hal}, Cosmos 50 {}
import Foundation
import Testing

@testable import GraphStore

/// Builds the org-chart store and answers questions by name.
struct OrgChartFixture {
    let store: PersistentStore
    let context: ObjectContext

    /// The model, with the templates `PeopleOlderThan` (`age > $AGE`) and `MembersOf`
    /// (`ANY projects.name == $PROJECT`), and the fetched property `Organization.seniors`
    /// (its people aged 40 or more).
    static func makeModel() throws -> ObjectModel {
        try ModelBuilder("OrgChart")
            .entity("Organization") { org in
                org.attribute("name", .string, optional: false)
                org.toMany("people", "Person", inverse: "organization", deleteRule: .cascade)
                org.toOne("leader", "Person", inverse: "leads")
                org.fetchedProperty("seniors", "Person", predicate: "organization == $FETCH_SOURCE AND age >= 40")
            }
            .entity("Person") { person in
                person.attribute("name", .string, optional: false)
                person.attribute("age", .integer16)
                person.attribute("salary", .decimal)
                person.toOne("manager", "Person", inverse: "employees")
                person.toMany("employees", "Person", inverse: "manager")
                person.toOne("organization", "Organization", inverse: "people")
                person.toOne("leads", "Organization", inverse: "leader")
                person.toMany("projects", "Project", inverse: "members")
            }
            .entity("Project") { project in
                project.attribute("name", .string, optional: false)
                project.attribute("budget", .integer32)
                project.toMany("members", "Person", inverse: "projects")
            }
            .fetchRequest("PeopleOlderThan", entity: "Person", predicate: "age > $AGE")
            .fetchRequest("MembersOf", entity: "Person", predicate: "ANY projects.name == $PROJECT")
            .build()
    }

    /// A fresh in-memory store holding the chart, and a reset context on it.
    init() throws {
        store = try PersistentStore.inMemory(model: Self.makeModel())
        context = try ObjectContext(store: store)
        var orgs: [String: ManagedObject] = [:]
        for name in ["Acme", "Zenith", "Empty"] {
            let org = try context.insert("Organization")
            try org.set("name", name)
            orgs[name] = org
        }
        var people: [String: ManagedObject] = [:]
        let rows: [(String, Int16, String?, String?, String)] = [
            ("Ada", 52, "250000", nil, "Acme"), ("Bea", 31, "98000.50", "Ada", "Acme"),
            ("Cal", 45, "120000", "Ada", "Acme"), ("Dee", 28, "64000", "Cal", "Acme"),
            ("Éli", 35, "88000", "Cal", "Zenith"), ("Fay", 35, "91000", nil, "Zenith"),
            ("Gus", 40, nil, "Fay", "Zenith"), ("Hal", 23, "50000", "Fay", "Zenith"),
        ]
        for (name, age, salary, manager, org) in rows {
            let person = try context.insert("Person")
            try person.set("name", name)
            try person.set("age", age)
            try person.set("salary", salary.flatMap { Decimal(string: $0) })
            try person.setRelated("organization", to: orgs[org])
            if let manager { try person.setRelated("manager", to: people[manager]) }
            people[name] = person
        }
        try orgs["Acme"]?.setRelated("leader", to: people["Ada"])
        try orgs["Zenith"]?.setRelated("leader", to: people["Fay"])
        for (name, budget, members) in [
            ("Apollo", 100, ["Bea", "Dee"]), ("Borealis", 250, ["Cal", "Dee", "Hal"]), ("Cosmos", 50, []),
        ] {
            let project = try context.insert("Project")
            try project.set("name", name)
            try project.set("budget", Int32(budget))
            for member in members {
                try project.add(try #require(people[member]), to: "members")
            }
        }
        try context.save()
        context.reset()
    }

    /// The names of the people matching `format`, sorted by name (by UTF-8 bytes, as SQL).
    func names(_ format: String, _ arguments: any PredicateArgument...) throws -> [String] {
        try names(
            FetchRequest(entityName: "Person", predicate: FetchPredicate(format: format, argumentArray: arguments)))
    }

    /// The names of the objects `request` fetches, sorted by name unless it has sort descriptors.
    func names(_ request: FetchRequest) throws -> [String] {
        var request = request
        if request.sortDescriptors.isEmpty { request.sortDescriptors = [FetchSortDescriptor("name")] }
        return try context.fetch(request).map { try $0.get("name", as: String.self) ?? "?" }
    }

    /// The names of the `entity` objects the in-memory evaluator finds matching `predicate`.
    func evaluatedNames(_ entity: String = "Person", _ predicate: FetchPredicate) throws -> [String] {
        let all = try context.fetch(FetchRequest(entityName: entity, sortDescriptors: [FetchSortDescriptor("name")]))
        return try all.filter { try PredicateEvaluator.evaluate(predicate, on: $0) }
            .map { try $0.get("name", as: String.self) ?? "?" }
    }

    /// The object of `entity` called `name`.
    func object(_ entity: String = "Person", named name: String) throws -> ManagedObject {
        try #require(try context.fetch(FetchRequest(entityName: entity, predicate: .key("name") == name)).first)
    }
}
