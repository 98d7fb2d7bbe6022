// `--model MODEL [--model-version NAME]`: the model a command opens Core Data–layout stores with
// (they hold none SeedKit reads; a SeedKit store carries its own). A versioned model gives, for
// each store, the version whose hashes equal the store's (docs/CoreDataStores.md), unless
// --model-version names one; a model that fits no version is tried with the current one, and
// the store refuses it naming the entities that differ.
import ArgumentParser
import Foundation
import GraphStore
import ModelFiles

/// The model of the Core Data–layout stores a command opens.
struct StoreModelOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The Xcode model (.xcdatamodeld, .xcdatamodel) of a Core Data store; a SeedKit store carries its own.",
            valueName: "model"))
    var model: String?

    @Option(help: "The version of a versioned --model to use (default: the one whose hashes equal the store's).")
    var modelVersion: String?

    func validate() throws {
        if modelVersion != nil && model == nil { throw ValidationError("--model-version needs --model") }
    }

    /// The loaded versions of `--model` (nil without it).
    func versions() throws -> ModelVersionSet? {
        try model.map { try ModelVersionSet.load(from: $0) }
    }

    /// The model to open the existing store at `path` with: from `--model` for a Core Data–layout
    /// store (nil for a SeedKit store, which carries its own, or without `--model`).
    func model(forStoreAt path: String, in versions: ModelVersionSet?) throws -> ObjectModel? {
        guard let versions, FileManager.default.fileExists(atPath: path) else { return nil }
        let metadata = try PersistentStore.metadata(at: path)
        guard metadata.layout == StoreLayoutKind.coreData.rawValue else { return nil }
        return try chosen(from: versions, for: metadata)
    }

    /// The named version, else the one `metadata` was made with, else the current (or last) one.
    func chosen(from versions: ModelVersionSet, for metadata: StoreMetadata?) throws -> ObjectModel {
        if let modelVersion { return try versions.model(named: modelVersion) }
        if let metadata, let fitting = versions.version(matching: metadata) { return fitting.model }
        return versions.current ?? versions.versions[versions.versions.count - 1].model
    }

    /// Opens the existing store at `path` with `options` (``StoreReadOptions/storeOptions`` to
    /// read it) and its model: its own, or `--model`'s for a Core Data–layout store.
    func open(_ path: String, options: StoreOptions = StoreOptions(), versions: ModelVersionSet?) throws
        -> PersistentStore
    {
        var options = options
        options.createIfMissing = false
        return try PersistentStore.open(at: path, model: try model(forStoreAt: path, in: versions), options: options)
    }
}
