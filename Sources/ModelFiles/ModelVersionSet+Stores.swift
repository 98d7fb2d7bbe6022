// Which version of a versioned model a store was made with: for a Core Data–layout store the
// version whose Core Data entity version hashes equal the ones its metadata records
// (`NSStoreModelVersionHashes`), for a SeedKit store the version whose model hash equals its
// `model.hash` — so that a command given an app's `.xcdatamodeld` opens each store with its own
// version, as Core Data does.
// Invariant: the versions are tried in name order; the first that fits is taken (two versions
// may differ only in what no hash covers, and then either opens the store).
import GraphStore

extension ModelVersionSet {
    /// The version a store holding `metadata` was made with; nil when no version fits it.
    ///
    /// ```swift
    /// let set = try ModelVersionSet.load(from: "App.xcdatamodeld")
    /// let model = set.version(matching: try PersistentStore.metadata(at: "App.sqlite"))?.model
    /// ```
    public func version(matching metadata: StoreMetadata) -> Version? {
        versions.first { metadata.isAt($0.model) }
    }
}
