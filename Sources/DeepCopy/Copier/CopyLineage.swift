// A copy that remembers where the target's objects came from (docs/FirstLaunch.md, "Seed
// upgrades"): the target's seed record (GraphStore's SeedProvenance) maps each source object's
// identity to the object it became, with the fingerprints of the values it was given. A later
// copy from a newer source updates what the target left alone, keeps what it changed (or not:
// the policy), never matches a keyless object twice, and leaves out what the target deleted.

/// How a copy uses and keeps the target's record of which source objects its objects came from.
///
/// ```swift
/// var options = DeepCopyOptions()
/// options.lineage = CopyLineage(policy: .keepTargetChanges)   // a seed upgrade that respects the user
/// ```
public struct CopyLineage: Sendable, Hashable {
    /// What a matched object's changed properties and a deleted object become.
    public enum Policy: Sendable, Hashable {
        /// A property the target changed since the source last gave it a value keeps the
        /// target's value; an object the target deleted is not copied again.
        case keepTargetChanges
        /// Every property takes the source's value and deleted objects are copied again: the
        /// source's objects are what the source says (reference data the target never edits).
        case sourceWins
    }

    /// The policy.
    public var policy: Policy

    /// A lineage with `policy`.
    public init(policy: Policy = .keepTargetChanges) {
        self.policy = policy
    }

    /// Whether target changes are kept (and deleted objects left out).
    var keepsTargetChanges: Bool { policy == .keepTargetChanges }
}
