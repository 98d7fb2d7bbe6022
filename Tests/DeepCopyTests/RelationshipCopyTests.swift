// Per-relationship choices (DeepCopyOptions.relationships): a cut link stays unset from both
// sides (and a matched object keeps its own); bring-along copies the destinations a predicate or
// the entity list left out and links them — ordered to-manys in order (join table and members'
// table), chains of several levels, self references — with inverses consistent; bad names and
// contradictions are refused before anything is written. Checked by walking the copied objects.
import Foundation
import GraphStore
import Testing

@testable import DeepCopy

@Suite struct RelationshipCopyTests {
    static func copy(_ options: DeepCopyOptions, into target: PersistentStore? = nil) throws -> (
        PersistentStore, CopyReport
    ) {
        let source = try DeepCopierTests.source()
        let target = try target ?? PersistentStore.inMemory(model: DeepCopierTests.model())
        let report = try DeepCopier(from: source, to: target, options: options).run()
        return (target, report)
    }

    /// Each unit with the skus of its items, each tag with its items, each item with its lists:
    /// the inverse sides, walked from the other end.
    static func inverses(_ store: PersistentStore) throws -> [String] {
        let context = try ObjectContext(store: store)
        var lines: [String] = []
        for (entity, key) in [("Unit", "name"), ("Tag", "name")] {
            for owner in try context.fetch(
                FetchRequest(entityName: entity, sortDescriptors: [FetchSortDescriptor(key)]))
            {
                let skus = try owner.relatedObjects("items").map { try $0.get("sku", as: String.self) ?? "" }.sorted()
                lines.append("\(entity)|\(try owner.get(key, as: String.self) ?? "")|" + skus.joined(separator: ","))
            }
        }
        for item in try context.fetch(FetchRequest(entityName: "Item", sortDescriptors: [FetchSortDescriptor("sku")])) {
            let lists = try item.relatedObjects("lists").map { try $0.get("title", as: String.self) ?? "" }
            let replaces = try item.relatedObjects("replaces").map { try $0.get("sku", as: String.self) ?? "" }.sorted()
            lines.append(
                "Item|\(try item.get("sku", as: String.self) ?? "")|\(lists.joined(separator: ","))|"
                    + replaces.joined(separator: ","))
        }
        return lines
    }

    @Test func aCutLinkStaysUnsetFromBothSides() throws {
        var options = DeepCopyOptions()
        options.relationships = ["Item.unit": .cut, "Tag.items": .cut, "List.items": .follow]
        let (target, report) = try Self.copy(options)
        #expect(report.entities["Unit"]?.copied == 2 && report.entities["Tag"]?.copied == 1)
        #expect(
            try DeepCopierTests.walk(target) == [
                "Item|A|0.5|[1, 2, 0]|-||B", "Item|B|1.5|[1, 2, 1]|-||A", "Special|C|2.5|[1, 2, 2]|-||-",
                "Item|D|3.5|[1, 2, 3]|-||D", "List|Weekly|C,A,D",
            ])
        #expect(
            try Self.inverses(target) == [
                "Unit|kg|", "Unit|pack|", "Tag|fresh|", "Item|A|Weekly|B", "Item|B||A", "Item|C|Weekly|",
                "Item|D|Weekly|D",
            ])
    }

    @Test func aCutLinkLeavesAMatchedObjectsOwnLink() throws {
        let target = try PersistentStore.inMemory(model: DeepCopierTests.model())
        let user = try ObjectContext(store: target)
        let mine = try user.insert("Item")
        try mine.set("sku", "A")
        let box = try user.insert("Unit")
        try box.set("name", "box")
        try mine.setRelated("unit", to: box)
        try user.save()
        var options = DeepCopyOptions()
        options.relationships = ["Unit.items": .cut]
        _ = try Self.copy(options, into: target)
        let lines = try DeepCopierTests.walk(target)
        #expect(lines.contains("Item|A|0.5|[1, 2, 0]|box|fresh|B"))
        #expect(lines.contains("Item|B|1.5|[1, 2, 1]|-|fresh|A"))
        #expect(try Self.inverses(target).prefix(3) == ["Unit|box|A", "Unit|kg|", "Unit|pack|"])
    }

    @Test func bringAlongCopiesWhatAPredicateLeftOutInOrder() throws {
        var options = DeepCopyOptions()
        options.predicates = ["Item": try FetchPredicate(format: "price > 3")]
        options.relationships = ["List.items": .bringAlong]
        let (target, report) = try Self.copy(options)
        #expect(report.entities["Item"]?.copied == 2 && report.entities["Item"]?.skipped == 1)
        #expect(report.entities["Special"]?.copied == 1 && report.entities["Special"]?.skipped == 0)
        #expect(
            try DeepCopierTests.walk(target) == [
                "Item|A|0.5|[1, 2, 0]|kg|fresh|-", "Special|C|2.5|[1, 2, 2]|kg|fresh|-", "Item|D|3.5|[1, 2, 3]|pack||D",
                "List|Weekly|C,A,D",
            ])
        #expect(
            try Self.inverses(target) == [
                "Unit|kg|A,C", "Unit|pack|D", "Tag|fresh|A,C", "Item|A|Weekly|", "Item|C|Weekly|", "Item|D|Weekly|D",
            ])
        let check = try ObjectContext(store: target)
        let special = try check.fetch(FetchRequest(entityName: "Special"))
        #expect(try special.map { try $0.get("reason", as: String.self) } == ["seasonal"])
    }

    @Test func bringAlongFollowsAChainOfSeveralLevels() throws {
        var options = DeepCopyOptions()
        options.entities = ["List"]
        options.relationships = ["List.items": .bringAlong, "Item.replacement": .bringAlong, "Item.unit": .bringAlong]
        let (target, report) = try Self.copy(options)
        #expect(report.entities["Item"]?.copied == 3 && report.entities["Special"]?.copied == 1)
        #expect(report.entities["Unit"]?.copied == 2 && report.entities["Tag"] == nil)
        // List → A → B (its replacement) → pack (B's unit): three levels; tags were not asked for.
        #expect(
            try DeepCopierTests.walk(target) == [
                "Item|A|0.5|[1, 2, 0]|kg||B", "Item|B|1.5|[1, 2, 1]|pack||A", "Special|C|2.5|[1, 2, 2]|kg||-",
                "Item|D|3.5|[1, 2, 3]|pack||D", "List|Weekly|C,A,D",
            ])
        #expect(
            try Self.inverses(target) == [
                "Unit|kg|A,C", "Unit|pack|B,D", "Item|A|Weekly|B", "Item|B||A", "Item|C|Weekly|", "Item|D|Weekly|D",
            ])
        // The same relationships without bring-along leave the links out with their objects.
        options.relationships = [:]
        let (plain, _) = try Self.copy(options)
        #expect(try DeepCopierTests.walk(plain) == ["List|Weekly|"])
    }

    @Test func bringAlongKeepsTheOrderOfMembersKeptOnTheirOwnTable() throws {
        let source = try OrderedMergeTests.store(playlists: [("Mix", ["t3", "t1", "t2"])])
        var options = DeepCopyOptions()
        options.predicates = ["Track": try FetchPredicate(format: "title == 't1'")]
        let followed = try PersistentStore.inMemory(model: OrderedMergeTests.model())
        _ = try DeepCopier(from: source, to: followed, options: options).run()
        #expect(try OrderedMergeTests.playlists(followed) == ["Mix: t1"])
        options.relationships = ["Playlist.tracks": .bringAlong]
        let brought = try PersistentStore.inMemory(model: OrderedMergeTests.model())
        _ = try DeepCopier(from: source, to: brought, options: options).run()
        #expect(try OrderedMergeTests.playlists(brought) == ["Mix: t3,t1,t2"])
        let check = try ObjectContext(store: brought)
        let tracks = try check.fetch(FetchRequest(entityName: "Track", sortDescriptors: [FetchSortDescriptor("title")]))
        #expect(try tracks.map { try $0.related("playlist")?.get("name", as: String.self) } == ["Mix", "Mix", "Mix"])
    }

    @Test func bringAlongMergesBroughtObjectsByKey() throws {
        let target = try PersistentStore.inMemory(model: DeepCopierTests.model())
        let user = try ObjectContext(store: target)
        let mine = try user.insert("Item")
        try mine.set("sku", "D")
        try mine.set("price", 7.0)
        try user.save()
        var options = DeepCopyOptions()
        options.entities = ["List"]
        options.onConflict = .keep
        options.relationships = ["List.items": .bringAlong]
        let (_, report) = try Self.copy(options, into: target)
        #expect(report.entities["Item"]?.copied == 1 && report.entities["Item"]?.matched == 1)
        #expect(
            try DeepCopierTests.walk(target) == [
                "Item|A|0.5|[1, 2, 0]|-||-", "Special|C|2.5|[1, 2, 2]|-||-", "Item|D|7.0|[]|-||D", "List|Weekly|C,A,D",
            ])
    }

    @Test func badNamesAndContradictionsAreRefusedBeforeWriting() throws {
        let cases: [([String: RelationshipCopy], String)] = [
            (["Item": .cut], "\"Item\": a relationship is named Entity.relationship"),
            (["Nope.items": .cut], "Nope.items: the source has no entity Nope"),
            (["Item.nope": .bringAlong], "Item.nope: Item has no relationship nope"),
            (["Special.unit": .cut], "Special.unit: the relationship is declared on Item; name it Item.unit"),
            (
                ["Item.unit": .cut, "Unit.items": .bringAlong],
                "Item.unit is cut, so its inverse Unit.items cannot bring its destinations along"
            ),
        ]
        for (choices, message) in cases {
            var options = DeepCopyOptions()
            options.relationships = choices
            let target = try PersistentStore.inMemory(model: DeepCopierTests.model())
            let error = try #require(throws: DeepCopyError.self) { _ = try Self.copy(options, into: target) }
            #expect(error.description == message)
            #expect(try ObjectContext(store: target).count(for: FetchRequest(entityName: "Item")) == 0)
        }
    }
}
