// The compatibility check of first launch: a seed is brought in only when its model is the
// app's model and the user store's model (same version hash); otherwise a clear error naming
// both models and their differences, before anything is written.
import GraphStore

/// A model as the compatibility check sees it: name, hash, and (when readable) the model.
struct ModelFingerprint {
    /// What holds the model (a seed, a plan, the app, the user's store) and its path.
    let owner: String
    /// The model's name.
    let name: String
    /// The model's version hash.
    let hash: String
    /// The model itself, read only to name the differences of a mismatch (nil when unreadable).
    private let model: () -> ObjectModel?

    /// The model recorded in a store's metadata.
    init(metadata: StoreMetadata, owner: String) {
        self.owner = owner
        name = metadata.modelName ?? "?"
        hash = metadata.modelHash ?? "?"
        model = { try? metadata.model(source: owner) }
    }

    /// A model in hand.
    init(model: ObjectModel, owner: String) {
        self.owner = owner
        name = model.name
        hash = model.versionHash
        self.model = { model }
    }

    /// Throws ``SeedLoadError/Kind/incompatibleModel`` unless `other` has this model's hash.
    func require(sameAs other: ModelFingerprint) throws {
        guard hash != other.hash else { return }
        var reason =
            "\(owner) has model \(name) (hash \(hash.prefix(16))), but \(other.owner) has model \(other.name) (hash \(other.hash.prefix(16)))"
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
