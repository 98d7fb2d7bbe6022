// The seed record of a store a first launch creates (docs/FirstLaunch.md, "Seed upgrades"): a
// copied seed or a store a plan seeded gets one before it is moved into place, so that the next
// seed's merge knows which objects came from the seed. A seed built by SeedBuilder carries its
// own (its copy stays byte for byte the seed); any other seed gets it written into the copy.
import GraphStore

/// Writes the seed record of a new store.
enum NewStoreRecord {
    /// Records every object of the (not yet installed) store at `path` as a seed object, unless
    /// it already holds a record; the store keeps its single-file journal.
    static func write(at path: String) throws {
        var options = StoreOptions()
        options.writeAheadLog = false
        let store = try PersistentStore.open(at: path, options: options)
        guard try !store.hasSeedRecord() else { return }
        try store.recordSeedObjects()
    }
}
