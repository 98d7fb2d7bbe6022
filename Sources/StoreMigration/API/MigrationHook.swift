// Code run at a chosen version in the middle of a migration (the staged pattern: migrate to an
// intermediate version, move data with code, migrate on). A hook gets the intermediate store,
// opened with that version's model; the version becomes a pass boundary, so its store is built
// as a file of its own. Hooks run on the migration's thread and should be deterministic, like
// everything else in a migration.
import GraphStore

/// Code run on the store at a version a migration passes through.
///
/// ```swift
/// source.hooks = [
///     .after("SampleModel3_v2") { hook in
///         let context = try hook.newContext()
///         for user in try context.fetch(FetchRequest(entity: "User")) { … }
///         try context.save()
///     }
/// ]
/// ```
public struct MigrationHook: Sendable {
    /// When a hook runs.
    public enum Moment: Sendable, Hashable {
        /// Once the store is at this version.
        case after(String)
        /// Just before the step into this version (the store is at the version before it).
        case before(String)
    }

    /// When the hook runs.
    public let moment: Moment
    let body: @Sendable (MigrationHookContext) throws -> Void

    /// A hook that runs `body` once the store has reached `version`.
    public static func after(_ version: String, _ body: @escaping @Sendable (MigrationHookContext) throws -> Void)
        -> MigrationHook
    {
        MigrationHook(moment: .after(version), body: body)
    }

    /// A hook that runs `body` just before the step into `version`.
    public static func before(_ version: String, _ body: @escaping @Sendable (MigrationHookContext) throws -> Void)
        -> MigrationHook
    {
        MigrationHook(moment: .before(version), body: body)
    }
}

/// What a hook gets: the intermediate store at its version.
public struct MigrationHookContext: Sendable {
    /// The version the store is at.
    public let version: String
    /// The intermediate store (a file of the migration's own, opened with the version's model).
    public let store: PersistentStore

    /// A new context on the intermediate store; save it to keep the hook's changes.
    public func newContext() throws -> ObjectContext {
        try ObjectContext(store: store)
    }
}
