// Why a migration cannot run or stopped, each naming the store, the versions, the entity and
// property concerned and what to do. Every error but the data checks, a changed store and file
// errors during the passes is decided while planning, before anything is written; whatever the
// error, the store is as it was (docs/Migration.md, "Errors").

/// A migration that cannot run, or that stopped with the store as it was.
///
/// ```swift
/// do { try await StoreMigrator.migrate(store: path, source: source) }
/// catch let error as MigrationError { print(error) }   // "App.sqlite: cannot migrate Model 2 → Model 3: …"
/// ```
public struct MigrationError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// The change between two models cannot be inferred; one line per change, `Entity.property: reason`.
        case notInferable([String])
        /// Two elements claim the same renaming identifier (or one element is claimed twice); the lines name both.
        case ambiguousRename([String])
        /// The versions' names give no order (the names), and no chain was given.
        case ambiguousOrder([String])
        /// A chain given explicitly is not valid (why).
        case invalidChain(String)
        /// A version the migration needs is not in the version set (its name, the versions).
        case unknownVersion(String, versions: [String])
        /// The model names no current version, and no target was given.
        case noTarget
        /// Two consecutive versions have no mapping model and their change cannot be inferred: the
        /// pair and every change that could not be inferred.
        case noPath(from: String, to: String, changes: [String])
        /// The store's version comes after the target in the order (the store's, the app's).
        case storeIsNewer(store: String, app: String)
        /// No version has the store's model hash and the store's embedded model cannot be
        /// migrated to the target directly (the hash, the changes).
        case unknownSourceVersion(hash: String, changes: [String])
        /// A mapping model that does not fit its versions: one line per problem (file, mapping, property).
        case invalidMapping([String])
        /// Value expressions SeedKit cannot run: one line per expression (file, mapping, property, format).
        case unsupportedExpression([String])
        /// Migration policy classes that are neither registered nor skipped (their names, as the mapping models write them).
        case unregisteredPolicy([String])
        /// The migrated objects break a rule of the new model; nothing was installed.
        case dataCheck(DataCheckFailure)
        /// The migration would drop values, objects or links and data loss is not allowed; one line each.
        case dataLoss([String])
        /// Another connection holds the store (its write-ahead log could not be checkpointed).
        case storeBusy
        /// Another process wrote to the store while the migration was building its new file; nothing was installed.
        case storeChangedDuringMigration
        /// The disk has less free space than the migration's new file needs (bytes needed, available).
        case insufficientSpace(needed: Int64, available: Int64)
        /// A file could not be created, read, synced, renamed or removed; the reason.
        case fileSystem(String)
        /// The store (or a file the migration builds) could not be read or written; the reason.
        case store(String)
        /// A migration policy or hook failed; its error.
        case policy(String)
    }

    /// What went wrong.
    public var kind: Kind
    /// The store being migrated.
    public var store: String

    /// An error of `kind` about the store at `store`.
    public init(_ kind: Kind, store: String) {
        self.kind = kind
        self.store = store
    }

    /// The problem in words, after the store's path.
    public var description: String {
        let reason: String
        switch kind {
        case .notInferable(let changes):
            reason = "the change cannot be inferred: " + changes.joined(separator: "; ")
        case .ambiguousRename(let lines):
            reason = "ambiguous renaming identifiers: " + lines.joined(separator: "; ")
        case .ambiguousOrder(let names):
            reason =
                "the version names give no order (\(names.joined(separator: ", "))): pass the chain explicitly"
        case .invalidChain(let why):
            reason = "invalid migration chain: \(why)"
        case .unknownVersion(let name, let versions):
            reason = "there is no model version '\(name)' (versions: \(versions.joined(separator: ", ")))"
        case .noTarget:
            reason = "the model names no current version: name the version to migrate to"
        case .noPath(let from, let to, let changes):
            reason =
                "cannot migrate \(from) → \(to): " + changes.joined(separator: "; ")
                + "; add a mapping model \(from) → \(to)"
        case .storeIsNewer(let store, let app):
            reason =
                "the store is at \(store), later than \(app): it cannot be migrated back unless a chain names that path"
        case .unknownSourceVersion(let hash, let changes):
            reason =
                "the store's model (hash \(hash.prefix(16))) is none of the versions, and it cannot be migrated directly: "
                + changes.joined(separator: "; ")
                + "; restore the store's version into the versioned model so a chain can start there"
        case .invalidMapping(let problems):
            reason = "the mapping model does not fit its versions: " + problems.joined(separator: "; ")
        case .unsupportedExpression(let expressions):
            reason = "unsupported mapping expression: " + expressions.joined(separator: "; ")
        case .unregisteredPolicy(let names):
            reason =
                "unregistered migration policy " + names.joined(separator: ", ")
                + ": register it (MigrationPolicies) and migrate from Swift, or skip it explicitly"
        case .dataCheck(let failure):
            reason = failure.description
        case .dataLoss(let lines):
            reason = "the migration would drop data: " + lines.joined(separator: "; ")
        case .storeBusy:
            reason = "another connection is using the store: close it and migrate again"
        case .storeChangedDuringMigration:
            reason = "the store was written to while it was being migrated: nothing was installed; migrate again"
        case .insufficientSpace(let needed, let available):
            reason = "not enough free space: \(needed) bytes needed, \(available) available"
        case .fileSystem(let message), .store(let message):
            reason = message
        case .policy(let message):
            reason = "a migration policy failed: \(message)"
        }
        return "\(store): \(reason)"
    }
}

/// A rule of the new model that the migrated objects break.
public struct DataCheckFailure: Sendable, Hashable, CustomStringConvertible {
    /// Which rule.
    public enum Rule: String, Sendable, Hashable {
        /// A required attribute or to-one relationship without a value.
        case requiredValue
        /// Two objects share the values of a unique constraint.
        case uniqueViolation
        /// An owner of a relationship that became to-one holds several destinations.
        case toOneOverflow
        /// A destination whose inverse became to-one would belong to several owners.
        case inverseConflict
        /// Two links of a mapping model give a to-one two different destinations.
        case conflictingLinks
        /// An entity that became abstract still has objects of its own.
        case abstractHasInstances
        /// A to-many holds fewer or more destinations than its minimum or maximum count.
        case countOutOfRange
        /// A value breaks a validation rule (range, length, pattern, dates).
        case validation
    }

    /// The rule broken.
    public var rule: Rule
    /// `Entity`, `Entity.property`, or `Entity.a,b` for a unique constraint.
    public var subject: String
    /// How many objects break it.
    public var count: Int
    /// The first offending object: its key (`pk 12`) or the duplicated values.
    public var first: String

    /// A failure of `rule` on `subject` by `count` objects, the first being `first`.
    public init(rule: Rule, subject: String, count: Int, first: String) {
        self.rule = rule
        self.subject = subject
        self.count = count
        self.first = first
    }

    /// `Item.name: required value missing in 3 objects (first: pk 12)`.
    public var description: String {
        let what: String
        switch rule {
        case .requiredValue: what = "required value missing"
        case .uniqueViolation: what = "unique constraint broken"
        case .toOneOverflow: what = "to-one relationship would hold several destinations"
        case .inverseConflict: what = "destination would belong to several owners through a to-one inverse"
        case .conflictingLinks: what = "to-one relationship given two different destinations"
        case .abstractHasInstances: what = "the entity became abstract but has objects of its own"
        case .countOutOfRange: what = "number of destinations out of the relationship's range"
        case .validation: what = "value breaks its validation rules"
        }
        let objects = count == 1 ? "1 object" : "\(count) objects"
        return "\(subject): \(what) in \(objects) (first: \(first))"
    }
}
