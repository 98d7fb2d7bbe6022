// Links of relationships declared on an abstract parent (a keeper's animals, an animal's ordered
// visits and its ordered tags, where Animal is abstract and Dog and Cat are copied): a copy whose
// rows are remapped (a predicate, a target holding objects) writes every one of them — to-one
// columns, ordered to-manys on the members' table, join tables — and merges the ordered ones into
// matched objects as OrderedMergeTests describes, as a copy of the same model without inheritance does.
import Foundation
import GraphStore
import Testing

@testable import DeepCopy

@Suite struct AbstractParentLinkTests {
    static func model() throws -> ObjectModel {
        try ModelBuilder("Zoo")
            .entity("Keeper") { keeper in
                keeper.attribute("name", .string)
                keeper.toMany("animals", "Animal", inverse: "keeper")
                keeper.unique("name")
            }
            .entity("Animal", abstract: true) { animal in
                animal.attribute("name", .string)
                animal.toOne("keeper", "Keeper", inverse: "animals")
                animal.toMany("visits", "Visit", inverse: "animal", ordered: true)
                animal.toMany("tags", "Tag", inverse: "animals", ordered: true)
                animal.unique("name")
            }
            .entity("Dog", parent: "Animal") { $0.attribute("breed", .string) }
            .entity("Cat", parent: "Animal") { $0.attribute("lives", .integer16) }
            .entity("Visit") { visit in
                visit.attribute("note", .string)
                visit.toOne("animal", "Animal", inverse: "visits")
                visit.unique("note")
            }
            .entity("Tag") { tag in
                tag.attribute("word", .string)
                tag.toMany("animals", "Animal", inverse: "tags")
                tag.unique("word")
            }
            .build()
    }

    /// A store holding each animal (entity, name, keeper, visits, tags in order); objects named
    /// twice are one.
    static func store(_ animals: [(entity: String, name: String, keeper: String, visits: [String], tags: [String])])
        throws -> PersistentStore
    {
        let store = try PersistentStore.inMemory(model: model())
        let context = try ObjectContext(store: store)
        let named = NamedObjects(context)
        let object = named.object
        for animal in animals {
            let inserted = try object(animal.entity, "name", animal.name)
            try inserted.setRelated("keeper", to: try object("Keeper", "name", animal.keeper))
            for note in animal.visits { try inserted.add(try object("Visit", "note", note), to: "visits") }
            for word in animal.tags { try inserted.add(try object("Tag", "word", word), to: "tags") }
        }
        try context.save()
        return store
    }

    static func source() throws -> PersistentStore {
        try store([
            ("Dog", "Rex", "Ann", ["v1", "v2", "v3"], ["big", "loud"]),
            ("Cat", "Tom", "Ann", ["v4"], ["loud", "small"]),
            ("Cat", "Kitty", "Bob", [], ["small"]),
        ])
    }

    /// Each animal as `entity name keeper: visits | tags`, then each keeper's, visit's and tag's
    /// side of the same links, walked from the other end.
    static func walk(_ store: PersistentStore) throws -> [String] {
        let context = try ObjectContext(store: store)
        func names(_ objects: [ManagedObject], _ attribute: String) throws -> String {
            try objects.map { try $0.get(attribute, as: String.self) ?? "?" }.joined(separator: ",")
        }
        func all(_ entity: String, by attribute: String) throws -> [ManagedObject] {
            try context.fetch(FetchRequest(entityName: entity, sortDescriptors: [FetchSortDescriptor(attribute)]))
        }
        var lines: [String] = []
        for animal in try all("Animal", by: "name") {
            let keeper = try animal.related("keeper").flatMap { try $0.get("name", as: String.self) } ?? "-"
            lines.append(
                "\(animal.entity.name) \(try animal.get("name", as: String.self) ?? "?") \(keeper): "
                    + "\(try names(animal.relatedObjects("visits"), "note")) | \(try names(animal.relatedObjects("tags"), "word"))"
            )
        }
        for keeper in try all("Keeper", by: "name") {
            let animals = try keeper.relatedObjects("animals").map { try $0.get("name", as: String.self) ?? "?" }
            lines.append(
                "Keeper \(try keeper.get("name", as: String.self) ?? "?"): \(animals.sorted().joined(separator: ","))")
        }
        for visit in try all("Visit", by: "note") {
            let animal = try visit.related("animal").flatMap { try $0.get("name", as: String.self) } ?? "-"
            lines.append("Visit \(try visit.get("note", as: String.self) ?? "?"): \(animal)")
        }
        for tag in try all("Tag", by: "word") {
            let animals = try tag.relatedObjects("animals").map { try $0.get("name", as: String.self) ?? "?" }
            lines.append(
                "Tag \(try tag.get("word", as: String.self) ?? "?"): \(animals.sorted().joined(separator: ","))")
        }
        return lines
    }

    static func copy(
        into target: PersistentStore, _ policy: CopyConflictPolicy = .update, predicates: [String: FetchPredicate] = [:]
    ) throws {
        var options = DeepCopyOptions()
        options.onConflict = policy
        options.predicates = predicates
        _ = try DeepCopier(from: try source(), to: target, options: options).run()
    }

    @Test func aCopyWhoseRowsAreRemappedWritesEveryLink() throws {
        let filtered = try PersistentStore.inMemory(model: Self.model())
        try Self.copy(into: filtered, predicates: ["Visit": try FetchPredicate(format: "note != 'v2'")])
        #expect(
            try Self.walk(filtered) == [
                "Cat Kitty Bob:  | small", "Dog Rex Ann: v1,v3 | big,loud", "Cat Tom Ann: v4 | loud,small",
                "Keeper Ann: Rex,Tom", "Keeper Bob: Kitty", "Visit v1: Rex", "Visit v3: Rex", "Visit v4: Tom",
                "Tag big: Rex", "Tag loud: Rex,Tom", "Tag small: Kitty,Tom",
            ])
        // A target holding other objects: every key is remapped.
        let occupied = try Self.store([("Dog", "Fido", "Cy", ["w1"], ["old"])])
        try Self.copy(into: occupied)
        #expect(
            try Self.walk(occupied) == [
                "Dog Fido Cy: w1 | old", "Cat Kitty Bob:  | small", "Dog Rex Ann: v1,v2,v3 | big,loud",
                "Cat Tom Ann: v4 | loud,small", "Keeper Ann: Rex,Tom", "Keeper Bob: Kitty", "Keeper Cy: Fido",
                "Visit v1: Rex", "Visit v2: Rex", "Visit v3: Rex", "Visit v4: Tom", "Visit w1: Fido", "Tag big: Rex",
                "Tag loud: Rex,Tom", "Tag old: Fido", "Tag small: Kitty,Tom",
            ])
    }

    @Test(arguments: [CopyConflictPolicy.update, .keep])
    func orderedListsOfAMatchedAnimalMerge(policy: CopyConflictPolicy) throws {
        let target = try Self.store([("Dog", "Rex", "Ann", ["v3", "x", "v1"], ["odd", "loud"])])
        try Self.copy(into: target, policy)
        let rex = try #require(try Self.walk(target).first { $0.hasPrefix("Dog Rex") })
        #expect(
            rex
                == (policy == .update
                    ? "Dog Rex Ann: v1,v2,v3,x | big,loud,odd" : "Dog Rex Ann: v3,x,v1,v2 | odd,loud,big"))
    }
}
