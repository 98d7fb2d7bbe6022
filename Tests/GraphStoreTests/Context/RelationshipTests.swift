// Tests of relationships: inverses kept in sync for every mutation kind, ordered to-many
// operations and their round trip through a save, and delete rules (a League fixture).
import Foundation
import Testing

@testable import GraphStore

@Suite struct RelationshipTests {
    static func names(_ objects: [ManagedObject]) throws -> [String] {
        try objects.map { try $0.get("name", as: String.self) ?? $0.get("sku", as: String.self) ?? "?" }
    }

    static func item(_ context: ObjectContext, _ sku: String) throws -> ManagedObject {
        let item = try context.insert("Item")
        try item.set("sku", sku)
        try item.set("name", sku)
        return item
    }

    @Test func toOneAndToManyInversesStayInSync() throws {
        let context = try ObjectContext(store: PersistentStore.inMemory(model: CatalogModel.build()))
        let kg = try context.insert("Unit")
        try kg.set("name", "kg")
        let g = try context.insert("Unit")
        try g.set("name", "g")
        let apples = try Self.item(context, "apples")
        try apples.setRelated("unit", to: kg)
        #expect(try kg.relatedObjects("items").map(\.objectID) == [apples.objectID])
        try g.add(apples, to: "items")
        #expect(try apples.related("unit") === g)
        #expect(try kg.relatedObjects("items").isEmpty)
        try apples.setRelated("unit", to: nil)
        #expect(try g.relatedObjects("items").isEmpty)

        let fruit = try context.insert("Tag")
        try fruit.set("name", "fruit")
        try apples.add(fruit, to: "tags")
        #expect(try fruit.relatedObjects("items").first === apples)
        try fruit.remove(apples, from: "items")
        #expect(try apples.relatedObjects("tags").isEmpty)
        #expect(throws: ObjectError.self) { try apples.setRelated("unit", to: fruit) }
    }

    @Test func orderedToManyInsertMoveRemoveAndRoundTrip() throws {
        let store = try PersistentStore.inMemory(model: CatalogModel.build())
        let context = try ObjectContext(store: store)
        let list = try context.insert("ShoppingList")
        try list.set("code", "L1")
        let items = try ["a", "b", "c", "d"].map { try Self.item(context, $0) }
        for item in items { try list.add(item, to: "items") }
        try list.insert(items[3], at: 0, into: "items")
        try list.moveRelated(in: "items", from: 1, to: 3)
        try list.remove(items[2], from: "items")
        #expect(try Self.names(list.relatedObjects("items")) == ["d", "b", "a"])
        #expect(try items[2].relatedObjects("lists").isEmpty)
        #expect(try items[0].relatedObjects("lists").first === list)
        try context.save()

        let fresh = try ObjectContext(store: store)
        let reloaded = try fresh.existingObject(with: list.objectID)
        #expect(try Self.names(reloaded.relatedObjects("items")) == ["d", "b", "a"])
        try reloaded.moveRelated(in: "items", from: 2, to: 0)
        try fresh.save()
        let third = try ObjectContext(store: store)
        #expect(try Self.names(third.existingObject(with: list.objectID).relatedObjects("items")) == ["a", "d", "b"])
    }

    @Test func orderedToManyWithToOneInverseKeepsPositions() throws {
        let model = try ModelBuilder("Music")
            .entity("Playlist") { p in
                p.attribute("name", .string)
                p.toMany("tracks", "Track", inverse: "playlist", ordered: true, deleteRule: .cascade)
            }
            .entity("Track") { t in
                t.attribute("name", .string)
                t.toOne("playlist", "Playlist", inverse: "tracks")
            }
            .build()
        let store = try PersistentStore.inMemory(model: model)
        let context = try ObjectContext(store: store)
        let playlist = try context.insert("Playlist")
        for name in ["one", "two", "three"] {
            let track = try context.insert("Track")
            try track.set("name", name)
            try track.setRelated("playlist", to: playlist)
        }
        try playlist.moveRelated(in: "tracks", from: 2, to: 0)
        try context.save()
        let fresh = try ObjectContext(store: store)
        let reloaded = try fresh.existingObject(with: playlist.objectID)
        #expect(try Self.names(reloaded.relatedObjects("tracks")) == ["three", "one", "two"])
        try fresh.delete(reloaded)
        try fresh.save()
        #expect(try fresh.count(for: FetchRequest(entityName: "Track")) == 0)
    }

    /// The League fixture: teams cascade to players; players nullify their team; coaches deny.
    static func leagueModel() throws -> ObjectModel {
        try ModelBuilder("League")
            .entity("Team") { team in
                team.attribute("name", .string, optional: false)
                team.toMany("players", "Player", inverse: "team", deleteRule: .cascade)
                team.toOne("coach", "Coach", inverse: "team", deleteRule: .noAction)
                team.toMany("sponsors", "Sponsor", inverse: "teams", deleteRule: .deny)
            }
            .entity("Player") { player in
                player.attribute("name", .string, optional: false)
                player.toOne("team", "Team", inverse: "players", deleteRule: .nullify)
            }
            .entity("Coach") { coach in
                coach.attribute("name", .string)
                coach.toOne("team", "Team", inverse: "coach")
            }
            .entity("Sponsor") { sponsor in
                sponsor.attribute("name", .string)
                sponsor.toMany("teams", "Team", inverse: "sponsors")
            }
            .build()
    }

    @Test func deleteRulesCascadeNullifyDenyAndNoAction() throws {
        let store = try PersistentStore.inMemory(model: Self.leagueModel())
        let context = try ObjectContext(store: store)
        let team = try context.insert("Team")
        try team.set("name", "Owls")
        var players: [ManagedObject] = []
        for name in ["Ann", "Bo"] {
            let player = try context.insert("Player")
            try player.set("name", name)
            try player.setRelated("team", to: team)
            players.append(player)
        }
        let coach = try context.insert("Coach")
        try coach.setRelated("team", to: team)
        let sponsor = try context.insert("Sponsor")
        try team.add(sponsor, to: "sponsors")
        try context.save()

        try context.delete(players[0])
        #expect(try team.relatedObjects("players").count == 1)
        try context.save()

        try context.delete(team)
        let denied = try #require(throws: ObjectValidationError.self) { try context.save() }
        #expect(denied.failures.map(\.rule) == [.deleteDenied])
        #expect(denied.failures.first?.key == "sponsors")
        try team.remove(sponsor, from: "sponsors")
        try context.save()
        #expect(try context.count(for: FetchRequest(entityName: "Player")) == 0)
        #expect(try context.count(for: FetchRequest(entityName: "Sponsor")) == 1)
        // No action: the coach still points at the deleted team's key.
        let fresh = try ObjectContext(store: store)
        #expect(try fresh.existingObject(with: coach.objectID).related("team") != nil)
    }
}
