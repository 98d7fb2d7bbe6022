// What merging a newer seed does to the seed objects in the user's store (docs/FirstLaunch.md,
// "Seed upgrades"): respect what the user changed and deleted, or let the seed win.
import DeepCopy

/// How a newer seed treats the objects an earlier seed brought into the user's store.
///
/// ```swift
/// var options = SeedLoaderOptions()
/// options.upgradePolicy = .seedWins   // reference data the user cannot edit
/// ```
public enum SeedUpgradePolicy: String, Sendable, Hashable, CaseIterable {
    /// A property the user changed keeps the user's value (the others take the seed's), and a
    /// seed object the user deleted stays deleted.
    case respectUserChanges
    /// Seed objects are what the seed says: every property takes the seed's value, and seed
    /// objects the user deleted come back.
    case seedWins

    /// The deep copy's lineage for this policy.
    var lineage: CopyLineage {
        CopyLineage(policy: self == .respectUserChanges ? .keepTargetChanges : .sourceWins)
    }
}
