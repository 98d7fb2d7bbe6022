#!/usr/bin/env swift
// Opens a store with Apple's Core Data and the app's compiled model, without migration, and
// prints the number of objects of each entity (sub-entities counted apart, as `seedkit inspect`
// counts them): the check, on a Mac, that Core Data opens a store SeedKit built as it is
// (docs/CoreDataStores.md, "Checking a built store on a Mac"). Not run by the tests (Linux has no
// Core Data). The store is opened read-only and is not changed.
//
// Usage: swift tools/verify-coredata.swift MODEL.momd STORE.sqlite
//        (compile the model first: xcrun momc App.xcdatamodeld App.momd)
// Exit status: 0 when Core Data opened the store, 1 with its error otherwise, 2 on a usage error.
import CoreData
import Foundation

func fail(_ message: String, status: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data("verify-coredata: \(message)\n".utf8))
    exit(status)
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let modelPath = arguments.first, let storePath = arguments.last else {
    fail("usage: swift tools/verify-coredata.swift MODEL.momd STORE.sqlite", status: 2)
}
guard let model = NSManagedObjectModel(contentsOf: URL(fileURLWithPath: modelPath)) else {
    fail("\(modelPath) is not a compiled model (make one with xcrun momc MODEL.xcdatamodeld OUT.momd)")
}
guard FileManager.default.fileExists(atPath: storePath) else { fail("there is no store at \(storePath)") }

let description = NSPersistentStoreDescription(url: URL(fileURLWithPath: storePath))
description.type = NSSQLiteStoreType
description.isReadOnly = true
description.shouldMigrateStoreAutomatically = false
description.shouldInferMappingModelAutomatically = false
description.shouldAddStoreAsynchronously = false
let container = NSPersistentContainer(name: "Verify", managedObjectModel: model)
container.persistentStoreDescriptions = [description]
var loadError: Error?
container.loadPersistentStores { _, error in loadError = error }
if let loadError { fail("Core Data did not open \(storePath): \(loadError)") }

let context = container.viewContext
for entity in model.entities.sorted(by: { ($0.name ?? "") < ($1.name ?? "") }) {
    guard let name = entity.name else { continue }
    let request = NSFetchRequest<NSManagedObject>(entityName: name)
    request.includesSubentities = false
    do {
        print("\(name): \(try context.count(for: request))")
    } catch {
        fail("counting \(name): \(error)")
    }
}
