// Tests of fetching object IDs (stored only, and with the context's pending inserts and deletions)
// and of fetch(_:) refusing requests whose result type is not objects.
import Foundation
import Testing

@testable import GraphStore

@Suite struct ObjectIDFetchTests {
    /// A context over a store with units "g", "kg" and "l" saved.
    static func unitsContext() throws -> (PersistentStore, ObjectContext, [ManagedObject]) {
        let store = try PersistentStore.inMemory(model: CatalogModel.build())
        let context = try ObjectContext(store: store)
        let units = try ["g", "kg", "l"].map { name -> ManagedObject in
            let unit = try context.insert("Unit")
            try unit.set("name", name)
            return unit
        }
        try context.save()
        return (store, context, units)
    }

    @Test func objectIDsOfStoredObjectsFollowPredicateSortAndLimit() throws {
        let (store, _, units) = try Self.unitsContext()
        let fresh = try ObjectContext(store: store)
        var request = FetchRequest(entityName: "Unit", sortDescriptors: [FetchSortDescriptor("name", ascending: false)])
        request.resultType = .objectIDs
        let ids = try fresh.fetchObjectIDs(request)
        #expect(ids == units.reversed().map(\.objectID))
        #expect(ids.allSatisfy { !$0.isTemporary })
        // Only IDs are read: no object is registered.
        #expect(fresh.registeredObjects.isEmpty)

        request.predicate = try FetchPredicate(format: "name BEGINSWITH %@", "k")
        #expect(try fresh.fetchObjectIDs(request) == [units[1].objectID])
        request.predicate = nil
        request.fetchLimit = 1
        request.fetchOffset = 1
        #expect(try fresh.fetchObjectIDs(request) == [units[1].objectID])
    }

    @Test func objectIDsIncludePendingInsertsAndLeaveOutPendingDeletions() throws {
        let (_, context, units) = try Self.unitsContext()
        let cup = try context.insert("Unit")
        try cup.set("name", "cup")
        try context.delete(units[0])
        let request = FetchRequest(entityName: "Unit", sortDescriptors: [FetchSortDescriptor("name")])
        let ids = try context.fetchObjectIDs(request)
        #expect(ids == [cup.objectID, units[1].objectID, units[2].objectID])
        #expect(ids.first?.isTemporary == true)
        #expect(try context.object(with: cup.objectID) === cup)

        var predicated = request
        predicated.predicate = .key("name") == "cup"
        #expect(try context.fetchObjectIDs(predicated) == [cup.objectID])

        var storedOnly = request
        storedOnly.includesPendingChanges = false
        #expect(try context.fetchObjectIDs(storedOnly) == units.map(\.objectID))

        // After the save the insert has a permanent ID, and the temporary one still resolves.
        let temporary = cup.objectID
        try context.save()
        let saved = try context.fetchObjectIDs(request)
        #expect(saved == [cup.objectID, units[1].objectID, units[2].objectID])
        #expect(!cup.objectID.isTemporary && cup.objectID != temporary)
        #expect(try context.object(with: temporary) === cup)
    }

    @Test func fetchRejectsResultTypesOtherThanObjects() throws {
        let (_, context, _) = try Self.unitsContext()
        var request = FetchRequest(entityName: "Unit")
        request.resultType = .objectIDs
        let ids = try #require(throws: FetchError.self) { try context.fetch(request) }
        #expect(ids == .unsupportedResultType(.objectIDs, use: "fetchObjectIDs(_:)"))
        #expect(ids.description == "a request whose result type is .objectIDs is not run here: use fetchObjectIDs(_:)")
        #expect(try context.fetchObjectIDs(request).count == 3)

        request.resultType = .count
        #expect(throws: FetchError.unsupportedResultType(.count, use: "count(for:)")) { try context.fetch(request) }
        #expect(try context.count(for: request) == 3)

        request.resultType = .dictionaries
        #expect(throws: FetchError.unsupportedResultType(.dictionaries, use: "fetchDictionaries(_:)")) {
            try context.fetch(request)
        }
        request.resultType = .objects
        #expect(try context.fetch(request).count == 3)
    }
}
