// The compatibility check of first launch: a seed is brought in only when its model is the
// app's model and the user store's model (same version hash); otherwise a clear error naming
// both models and their differences, before anything is written. A Core Data–layout store
// records no SeedKit model hash: it is compared by Core Data's entity version hashes (their
// checksum), which every model and SeedKit store can give too.
import Foundation
import GraphStore

/// A model as the compatibility check sees it: name, hash, and (when readable) the model.
struct ModelFingerprint {
    /// What holds the model (a seed, a plan, the app, the user's store) and its path.
    let owner: String
    /// The model's name.
    let name: String
    /// The model's SeedKit version hash (nil for a Core Data–layout store, which records none).
    let hash: String?
    /// The checksum of the model's Core Data entity version hashes (nil when unknown).
    private let coreDataChecksum: () -> String?
    /// The model itself, read only to name the differences of a mismatch (nil when unreadable).
    private let model: () -> ObjectModel?

    /// The model recorded in a store's metadata.
    init(metadata: StoreMetadata, owner: String) {
        self.owner = owner
        if let stored = metadata.coreDataEntityHashes {
            name = "(Core Data store)"
            hash = nil
            coreDataChecksum = { CoreDataVersionHashes(entityHashes: stored).checksum }
            model = { nil }
        } else {
            name = metadata.modelName ?? "?"
            hash = metadata.modelHash ?? "?"
            let model = { try? metadata.model(source: owner) }
            coreDataChecksum = { model()?.coreDataVersionHashes.checksum }
            self.model = model
        }
    }

    /// A model in hand.
    init(model: ObjectModel, owner: String) {
        self.owner = owner
        name = model.name
        hash = model.versionHash
        coreDataChecksum = { model.coreDataVersionHashes.checksum }
        self.model = { model }
    }

    /// What the reason of a mismatch shows of the model: its SeedKit hash or Core Data checksum.
    private var shownHash: String {
        hash.map { "hash \($0.prefix(16))" } ?? "Core Data checksum \(coreDataChecksum()?.prefix(16) ?? "?")"
    }

    /// Throws ``SeedLoadError/Kind/incompatibleModel`` unless `other` has this model's hash (or,
    /// when either is a Core Data store, its Core Data entity version hashes).
    func require(sameAs other: ModelFingerprint) throws {
        if let hash, let otherHash = other.hash {
            guard hash != otherHash else { return }
        } else if let checksum = coreDataChecksum(), checksum == other.coreDataChecksum() {
            return
        }
        var reason =
            "\(owner) has model \(name) (\(shownHash)), but \(other.owner) has model \(other.name) (\(other.shownHash))"
        if let mine = model(), let theirs = other.model() {
            let differences = ModelDifference.between(theirs, mine)
            if !differences.isEmpty {
                reason += ": " + differences.prefix(5).joined(separator: "; ")
                if differences.count > 5 { reason += "; … (\(differences.count) differences)" }
            }
        }
        throw SeedLoadError(.incompatibleModel, reason)
    }
}
