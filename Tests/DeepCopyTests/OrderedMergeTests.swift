// Merging ordered to-manys into matched objects, in both storages (positions on the members'
// table; a join table with positions on both sides): under `update` a matched object's list takes
// the source's order with its target-only members after it in their old order; under `keep` the
// missing members are appended. Includes a copy into an empty store, a partial copy followed by
// a full one, members moving between lists, batches of one group, and unkeyed objects copied
// twice into a filled store (every owner a new row).
import Foundation
import GraphStore
import Testing

@testable import DeepCopy

@Suite struct OrderedMergeTests {
    /// Playlists order their tracks on the tracks' table (the inverse is a to-one); albums and
    /// songs are a many-to-many ordered on both sides (a join table with two position columns).
    /// Each entity is keyed by its name or title unless `keyed` is false.
    static func model(keyed: Bool = true) throws -> ObjectModel {
        try ModelBuilder("Music")
            .entity("Playlist") { playlist in
                playlist.attribute("name", .string)
                playlist.toMany("tracks", "Track", inverse: "playlist", ordered: true)
                if keyed { playlist.unique("name") }
            }
            .entity("Track") { track in
                track.attribute("title", .string)
                track.toOne("playlist", "Playlist", inverse: "tracks")
                if keyed { track.unique("title") }
            }
            .entity("Album") { album in
                album.attribute("name", .string)
                album.toMany("songs", "Song", inverse: "albums", ordered: true)
                if keyed { album.unique("name") }
            }
            .entity("Song") { song in
                song.attribute("title", .string)
                song.toMany("albums", "Album", inverse: "songs", ordered: true)
                if keyed { song.unique("title") }
            }
            .build()
    }

    /// A store whose playlists hold the tracks and whose albums hold the songs listed, in order
    /// (a track or song listed twice is one object), of the model keyed or not.
    static func store(playlists: [(String, [String])] = [], albums: [(String, [String])] = [], keyed: Bool = true)
        throws -> PersistentStore
    {
        let store = try PersistentStore.inMemory(model: model(keyed: keyed))
        let context = try ObjectContext(store: store)
        let named = NamedObjects(context)
        let object = named.object
        for (name, tracks) in playlists {
            let playlist = try object("Playlist", "name", name)
            for title in tracks { try playlist.add(try object("Track", "title", title), to: "tracks") }
        }
        for (name, songs) in albums {
            let album = try object("Album", "name", name)
            for title in songs { try album.add(try object("Song", "title", title), to: "songs") }
        }
        try context.save()
        return store
    }

    /// `name: members` for every object of `entity` whose ordered `relationship` has members, in
    /// `name` order, each object and member named by its `name` and `member` attribute.
    static func lists(
        _ store: PersistentStore, _ entity: String, _ relationship: String, name attribute: String, member: String
    ) throws -> [String] {
        let context = try ObjectContext(store: store)
        let request = FetchRequest(entityName: entity, sortDescriptors: [FetchSortDescriptor(attribute)])
        return try context.fetch(request).compactMap { object in
            let members = try object.relatedObjects(relationship).map { try $0.get(member, as: String.self) ?? "" }
            return members.isEmpty
                ? nil : "\(try object.get(attribute, as: String.self) ?? ""): " + members.joined(separator: ",")
        }
    }

    static func playlists(_ store: PersistentStore) throws -> [String] {
        try lists(store, "Playlist", "tracks", name: "name", member: "title")
    }

    static func albums(_ store: PersistentStore) throws -> [String] {
        try lists(store, "Album", "songs", name: "name", member: "title")
    }

    static func songs(_ store: PersistentStore) throws -> [String] {
        try lists(store, "Song", "albums", name: "title", member: "name")
    }

    static func copy(
        _ source: PersistentStore, into target: PersistentStore, _ policy: CopyConflictPolicy, batchSize: Int = 50_000,
        predicates: [String: FetchPredicate] = [:]
    ) throws {
        var options = DeepCopyOptions()
        options.onConflict = policy
        options.batchSize = batchSize
        options.predicates = predicates
        _ = try DeepCopier(from: source, to: target, options: options).run()
    }

    @Test(arguments: [CopyConflictPolicy.update, .keep])
    func aMatchedListTakesTheSourceOrderUnderUpdateAndAppendsUnderKeep(policy: CopyConflictPolicy) throws {
        let source = try Self.store(playlists: [("Mix", ["t3", "t1", "t2"])], albums: [("A", ["s3", "s1", "s2"])])
        let target = try Self.store(
            playlists: [("Mix", ["x", "t2", "y", "t1"])], albums: [("A", ["x", "s2", "y", "s1"])])
        try Self.copy(source, into: target, policy)
        if policy == .update {
            #expect(try Self.playlists(target) == ["Mix: t3,t1,t2,x,y"])
            #expect(try Self.albums(target) == ["A: s3,s1,s2,x,y"])
        } else {
            #expect(try Self.playlists(target) == ["Mix: x,t2,y,t1,t3"])
            #expect(try Self.albums(target) == ["A: x,s2,y,s1,s3"])
        }
    }

    @Test(arguments: [CopyConflictPolicy.update, .keep])
    func aPartialCopyFollowedByAFullOne(policy: CopyConflictPolicy) throws {
        let source = try Self.store(
            playlists: [("Mix", ["a", "b", "c", "d"])], albums: [("A", ["a", "b", "c", "d"])])
        let target = try PersistentStore.inMemory(model: Self.model())
        let partial = try FetchPredicate(format: "title == 'b' OR title == 'd'")
        try Self.copy(source, into: target, policy, predicates: ["Track": partial, "Song": partial])
        #expect(try Self.playlists(target) == ["Mix: b,d"])
        #expect(try Self.albums(target) == ["A: b,d"])
        try Self.copy(source, into: target, policy)
        if policy == .update {
            #expect(try Self.playlists(target) == ["Mix: a,b,c,d"])
            #expect(try Self.albums(target) == ["A: a,b,c,d"])
        } else {
            #expect(try Self.playlists(target) == ["Mix: b,d,a,c"])
            #expect(try Self.albums(target) == ["A: b,d,a,c"])
        }
        // Copying again changes nothing either way.
        try Self.copy(source, into: target, policy)
        #expect(try Self.playlists(target) == [policy == .update ? "Mix: a,b,c,d" : "Mix: b,d,a,c"])
    }

    @Test(arguments: [CopyConflictPolicy.update, .keep])
    func membersMovingBetweenListsInBatchesOfOne(policy: CopyConflictPolicy) throws {
        let source = try Self.store(
            playlists: [("Mix", ["t3", "t1"]), ("Other", ["t4", "t2"])],
            albums: [("A", ["s3", "s1"]), ("B", ["s4", "s1", "s2"])])
        let target = try Self.store(
            playlists: [("Mix", ["t1", "t2", "t5"]), ("Other", ["t3", "t6"])],
            albums: [("A", ["s1", "s2", "s5"]), ("B", ["s2", "s6"])])
        try Self.copy(source, into: target, policy, batchSize: 1)
        if policy == .update {
            // t2 moves to Other, t3 to Mix; t5 and t6 only the target has.
            #expect(try Self.playlists(target) == ["Mix: t3,t1,t5", "Other: t4,t2,t6"])
            #expect(try Self.albums(target) == ["A: s3,s1,s2,s5", "B: s4,s1,s2,s6"])
            // The inverse side is ordered too: each song's albums in the source's order first.
            #expect(try Self.songs(target) == ["s1: A,B", "s2: B,A", "s3: A", "s4: B", "s5: A", "s6: B"])
        } else {
            #expect(try Self.playlists(target) == ["Mix: t1,t5,t3", "Other: t6,t4,t2"])
            #expect(try Self.albums(target) == ["A: s1,s2,s5,s3", "B: s2,s6,s4,s1"])
            #expect(try Self.songs(target) == ["s1: A,B", "s2: A,B", "s3: A", "s4: B", "s5: A", "s6: B"])
        }
    }

    @Test func aCopyIntoAnEmptyStoreKeepsTheSourceOrder() throws {
        let source = try Self.store(playlists: [("Mix", ["t3", "t1", "t2"])], albums: [("A", ["s3", "s1", "s2"])])
        for predicates in [[:], ["Track": try FetchPredicate(format: "title != 't1'")]] {
            let target = try PersistentStore.inMemory(model: Self.model())
            try Self.copy(source, into: target, .update, predicates: predicates)
            #expect(try Self.playlists(target) == [predicates.isEmpty ? "Mix: t3,t1,t2" : "Mix: t3,t2"])
            #expect(try Self.albums(target) == ["A: s3,s1,s2"])
        }
    }

    @Test func unkeyedOwnersACopyAddsToAFilledStoreListTheSourceOrder() throws {
        // Without keys every copied object is a new row above the target's keys, in both storages.
        let source = try Self.store(
            playlists: [("Mix", ["t3", "t1", "t2"])], albums: [("A", ["s3", "s1", "s2"])], keyed: false)
        let target = try Self.store(playlists: [("Mix", ["t9", "t8"])], albums: [("A", ["s9", "s8"])], keyed: false)
        try Self.copy(source, into: target, .update)
        try Self.copy(source, into: target, .update, batchSize: 1)
        #expect(try Self.playlists(target).sorted() == ["Mix: t3,t1,t2", "Mix: t3,t1,t2", "Mix: t9,t8"])
        #expect(try Self.albums(target).sorted() == ["A: s3,s1,s2", "A: s3,s1,s2", "A: s9,s8"])
        #expect(
            try Self.songs(target).sorted() == [
                "s1: A", "s1: A", "s2: A", "s2: A", "s3: A", "s3: A", "s8: A", "s9: A",
            ])
    }

    @Test func anUnmatchedListIsTheSourceListAndOtherListsKeepTheirOrder() throws {
        let source = try Self.store(playlists: [("New", ["t2", "t1"])], albums: [("N", ["s2", "s1"])])
        let target = try Self.store(playlists: [("Old", ["t9", "t8"])], albums: [("O", ["s9", "s8"])])
        try Self.copy(source, into: target, .update)
        #expect(try Self.playlists(target) == ["New: t2,t1", "Old: t9,t8"])
        #expect(try Self.albums(target) == ["N: s2,s1", "O: s9,s8"])
    }
}
