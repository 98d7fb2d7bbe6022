// The classic fixtures: an org chart (comparisons, strings, BETWEEN, multi-key sorts through a
// to-one) and a Shapes model (inheritance, one-to-one, a to-many with a minimum count,
// many-to-many).
import Foundation
import Testing

@testable import GraphStore

@Suite struct ClassicFixtureTests {
    static func orgChart() throws -> ObjectContext {
        let model = try ModelBuilder("Org")
            .entity("Organization") { org in
                org.attribute("name", .string, optional: false)
                org.toMany("people", "Person", inverse: "organization")
                org.toOne("leader", "Person", inverse: "leads")
            }
            .entity("Person") { person in
                person.attribute("name", .string, optional: false)
                person.attribute("age", .integer16)
                person.attribute("salary", .decimal)
                person.toOne("manager", "Person", inverse: "employees")
                person.toMany("employees", "Person", inverse: "manager")
                person.toOne("organization", "Organization", inverse: "people")
                person.toOne("leads", "Organization", inverse: "leader")
            }
            .build()
        let context = try ObjectContext(store: PersistentStore.inMemory(model: model))
        var people: [String: ManagedObject] = [:]
        let orgs = try ["Acme", "Zenith"].map { name -> ManagedObject in
            let org = try context.insert("Organization")
            try org.set("name", name)
            return org
        }
        let rows: [(String, Int16, String, String?, Int)] = [
            ("Ada", 52, "250000", nil, 0), ("Bea", 31, "98000.50", "Ada", 0), ("Cal", 45, "120000", "Ada", 0),
            ("Dee", 28, "64000", "Cal", 0), ("Éli", 35, "88000", "Cal", 1), ("Fay", 35, "91000", nil, 1),
        ]
        for (name, age, salary, manager, org) in rows {
            let person = try context.insert("Person")
            try person.set("name", name)
            try person.set("age", age)
            try person.set("salary", Decimal(string: salary))
            try person.setRelated("organization", to: orgs[org])
            if let manager { try person.setRelated("manager", to: people[manager]) }
            people[name] = person
        }
        try orgs[0].setRelated("leader", to: people["Ada"])
        try orgs[1].setRelated("leader", to: people["Fay"])
        try context.save()
        context.reset()
        return context
    }

    static func names(
        _ context: ObjectContext, _ format: String, _ arguments: any PredicateArgument...,
        sort: [FetchSortDescriptor] = [FetchSortDescriptor("name")]
    ) throws -> [String] {
        let request = FetchRequest(
            entityName: "Person", predicate: try FetchPredicate(format: format, argumentArray: arguments),
            sortDescriptors: sort)
        return try context.fetch(request).map { try $0.get("name", as: String.self) ?? "?" }
    }

    @Test func orgChartComparisonsStringsAndBetween() throws {
        let context = try Self.orgChart()
        #expect(try Self.names(context, "age > 34") == ["Ada", "Cal", "Fay", "Éli"])
        #expect(try Self.names(context, "age BETWEEN {30, 35}") == ["Bea", "Fay", "Éli"])
        #expect(try Self.names(context, "name BEGINSWITH[cd] %@", "e") == ["Éli"])
        #expect(try Self.names(context, "manager.name == %@", "Cal") == ["Dee", "Éli"])
        #expect(try Self.names(context, "manager == nil") == ["Ada", "Fay"])
        #expect(try Self.names(context, "salary >= 91000 AND organization.name != 'Zenith'") == ["Ada", "Bea", "Cal"])
        #expect(try Self.names(context, "name IN %@", ["Bea", "Dee", "Nobody"]) == ["Bea", "Dee"])
    }

    @Test func orgChartMultiKeySortsThroughToOne() throws {
        let context = try Self.orgChart()
        let sorted = try Self.names(
            context, "TRUEPREDICATE",
            sort: [
                FetchSortDescriptor("organization.name", ascending: false), FetchSortDescriptor("age"),
                FetchSortDescriptor("name"),
            ])
        #expect(sorted == ["Fay", "Éli", "Dee", "Bea", "Cal", "Ada"])
        let ada = try #require(
            try context.fetch(FetchRequest(entityName: "Person", predicate: .key("name") == "Ada")).first)
        #expect(try Set(ada.relatedObjects("employees").map { try $0.get("name", as: String.self) }) == ["Bea", "Cal"])
        #expect(try ada.related("leads")?.get("name", as: String.self) == "Acme")
    }

    static func shapes() throws -> ObjectModel {
        try ModelBuilder("Shapes")
            .entity("Canvas") { canvas in
                canvas.attribute("title", .string)
                canvas.toMany("shapes", "Shape", inverse: "canvas", minCount: 1, deleteRule: .cascade)
                canvas.toOne("frame", "Frame", inverse: "canvas", deleteRule: .cascade)
            }
            .entity("Frame") { frame in
                frame.attribute("width", .double)
                frame.toOne("canvas", "Canvas", inverse: "frame")
            }
            .entity("Shape", abstract: true) { shape in
                shape.attribute("color", .string)
                shape.toOne("canvas", "Canvas", inverse: "shapes")
                shape.toMany("groups", "Group", inverse: "shapes")
            }
            .entity("Circle", parent: "Shape") { $0.attribute("radius", .double) }
            .entity("Polygon", parent: "Shape") { $0.attribute("sides", .integer16) }
            .entity("Group") { group in
                group.attribute("name", .string)
                group.toMany("shapes", "Shape", inverse: "groups")
            }
            .build()
    }

    @Test func shapesInheritanceOneToOneMinimumCountAndManyToMany() throws {
        let store = try PersistentStore.inMemory(model: Self.shapes())
        let context = try ObjectContext(store: store)
        let canvas = try context.insert("Canvas")
        let frame = try context.insert("Frame")
        try canvas.setRelated("frame", to: frame)
        #expect(try frame.related("canvas") === canvas)
        let minimum = try #require(throws: ObjectValidationError.self) { try context.save() }
        #expect(minimum.failures.map(\.rule) == [.required])
        #expect(minimum.failures.first?.key == "shapes")
        #expect(throws: ObjectError.self) { _ = try context.insert("Shape") }
        let circle = try context.insert("Circle")
        try circle.set("radius", 2.0)
        let square = try context.insert("Polygon")
        try square.set("sides", Int16(4))
        let group = try context.insert("Group")
        for shape in [circle, square] {
            try shape.setRelated("canvas", to: canvas)
            try group.add(shape, to: "shapes")
        }
        try context.save()
        let fresh = try ObjectContext(store: store)
        let shapes = try fresh.fetch(FetchRequest(entityName: "Shape"))
        #expect(Set(shapes.map(\.entity.name)) == ["Circle", "Polygon"])
        let circles = try fresh.fetch(FetchRequest(entityName: "Circle", predicate: .key("radius") == 2.0))
        #expect(circles.map(\.entity.name) == ["Circle"])
        #expect(throws: FetchError.self) {
            _ = try fresh.fetch(FetchRequest(entityName: "Shape", predicate: .key("radius") == 2.0))
        }
        var onlyShape = FetchRequest(entityName: "Shape")
        onlyShape.includesSubentities = false
        #expect(try fresh.fetch(onlyShape).isEmpty)
        let reloaded = try fresh.existingObject(with: canvas.objectID)
        #expect(try reloaded.relatedObjects("shapes").count == 2)
        #expect(try fresh.existingObject(with: group.objectID).relatedObjects("shapes").count == 2)
        #expect(
            try fresh.existingObject(with: circle.objectID).relatedObjects("groups").first?.objectID == group.objectID)
        try fresh.delete(reloaded)
        try fresh.save()
        #expect(try fresh.count(for: FetchRequest(entityName: "Shape")) == 0)
        #expect(try fresh.count(for: FetchRequest(entityName: "Frame")) == 0)
    }

    @Test func fetchSeesUnsavedInsertsAndChanges() throws {
        let context = try Self.orgChart()
        let newcomer = try context.insert("Person")
        try newcomer.set("name", "Gus")
        try newcomer.set("age", Int16(40))
        let dee = try #require(
            try context.fetch(FetchRequest(entityName: "Person", predicate: .key("name") == "Dee")).first)
        try dee.set("age", Int16(60))
        #expect(try Self.names(context, "age > 34") == ["Ada", "Cal", "Dee", "Fay", "Gus", "Éli"])
        try context.delete(dee)
        #expect(try Self.names(context, "age > 34") == ["Ada", "Cal", "Fay", "Gus", "Éli"])
        #expect(try context.count(for: FetchRequest(entityName: "Person")) == 6)
    }
}
