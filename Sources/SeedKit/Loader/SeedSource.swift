// Where a first launch takes its seed data from: a bundled seed store (built by `seedkit build`)
// or bundled source files imported through a plan.

/// The seed data an app ships with, as ``SeedLoader`` reads it.
///
/// ```swift
/// let bundled = SeedSource.store("/app/Resources/Seed.sqlite")      // copy or deep-copy merge
/// let sources = SeedSource.plan("/app/Resources/Seed/plan.yaml")     // import through a plan
/// ```
public enum SeedSource: Sendable, Hashable {
    /// A seed store built by ``SeedBuilder`` (`seedkit build`): copied when the user has no
    /// store, merged into the user's store by deep copy when its `seed.version` is newer.
    case store(String)
    /// A plan file and its sources: imported into a new store (then moved into place), or
    /// into the user's store (upsert by the plan's keys and `onConflict`).
    case plan(String)
}
