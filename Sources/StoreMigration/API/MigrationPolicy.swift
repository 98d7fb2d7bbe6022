// Migration policies: the Swift code a mapping model names (`migrationpolicyclassname`, an
// NSEntityMigrationPolicy subclass in a Core Data app), registered by class name. A policy is
// called once per source object of its entity mapping, in batches on the migration's thread,
// after the mapping's own SQL created that batch's destination objects (unless the policy
// creates them itself); it reads the source object's values and finds, creates, changes and
// links destination objects through its context. The registry finds a policy by the class name
// as written, then by the part after its last dot (`REPLACE_AT_RUNTIME.V2to3MakerPolicy` finds
// `V2to3MakerPolicy`).
import GraphStore

/// The Swift side of a mapping model's migration policy class.
///
/// ```swift
/// struct MakerPolicy: MigrationPolicy {
///     func createDestinations(for car: MigrationSourceObject, in context: MigrationPolicyContext) throws {
///         guard case .string(let name)? = car["maker"], let destination = try context.destinations(of: car).first
///         else { return }
///         let maker = try context.first("Maker", where: "name", is: .string(name))
///             ?? context.insert("Maker", values: ["name": .string(name)])
///         try context.link(maker, "cars", to: destination)
///     }
/// }
/// ```
public protocol MigrationPolicy: Sendable {
    /// Whether the entity mapping's own SQL creates one destination object per source object
    /// before the policy is called (Core Data's call to `super`); when false, only the objects
    /// the policy inserts (and associates with their source) exist. Default true.
    var createsDestinations: Bool { get }

    /// Called for each source object of the entity mapping, in source key order. Default: nothing.
    func createDestinations(for source: MigrationSourceObject, in context: MigrationPolicyContext) throws

    /// The value of `FUNCTION($entityPolicy, "selector", arguments…)` in one of the mapping's
    /// attribute mappings, for one source object; the arguments are the expression's constants
    /// and `$source` key paths, evaluated. Default: throws, naming the function.
    func value(
        ofFunction selector: String, arguments: [AttributeValue?], for source: MigrationSourceObject,
        in context: MigrationPolicyContext
    ) throws -> AttributeValue?
}

extension MigrationPolicy {
    /// The mapping's SQL creates the destination objects.
    public var createsDestinations: Bool { true }

    /// Does nothing.
    public func createDestinations(for source: MigrationSourceObject, in context: MigrationPolicyContext) throws {}

    /// Throws: the policy provides no functions.
    public func value(
        ofFunction selector: String, arguments: [AttributeValue?], for source: MigrationSourceObject,
        in context: MigrationPolicyContext
    ) throws -> AttributeValue? {
        throw MigrationPolicyError("the policy has no function \(selector)")
    }
}

/// Migration policies by the class names mapping models give them.
///
/// ```swift
/// var policies = MigrationPolicies()
/// policies.register("LoopKit.CachedCarbObjectv3EntityMigrationPolicy", CachedCarbPolicy())
/// ```
public struct MigrationPolicies: Sendable {
    private var byName: [String: any MigrationPolicy] = [:]

    /// No policies.
    public init() {}

    /// Registers `policy` under `className` (with or without its module prefix).
    public mutating func register(_ className: String, _ policy: some MigrationPolicy) {
        byName[className] = policy
    }

    /// The policy for `className` as a mapping model writes it: registered under that name,
    /// else under the part after its last `.`.
    public func policy(named className: String) -> (any MigrationPolicy)? {
        byName[className] ?? byName[Self.shortName(of: className)]
    }

    /// The part of a class name after its last `.` (the class without its module).
    static func shortName(of className: String) -> String {
        className.split(separator: ".").last.map(String.init) ?? className
    }
}

/// A source object as a policy sees it: its key, its concrete entity and its attribute values.
public struct MigrationSourceObject: Sendable, Hashable {
    /// The object's key in the source store.
    public let key: Int64
    /// Its concrete entity in the source version.
    public let entity: String
    /// Its stored attribute values by name (nil values left out).
    public let values: [String: AttributeValue]

    /// A source object with these parts.
    public init(key: Int64, entity: String, values: [String: AttributeValue]) {
        self.key = key
        self.entity = entity
        self.values = values
    }

    /// The value of the attribute called `name`, nil when it has none.
    public subscript(name: String) -> AttributeValue? {
        values[name]
    }
}

/// A destination object a policy created, found or was given: its concrete entity and key.
public struct MigrationObject: Sendable, Hashable {
    /// Its concrete entity in the destination version.
    public let entity: String
    /// Its key in the new store.
    public let key: Int64

    /// The object of `entity` with `key`.
    public init(entity: String, key: Int64) {
        self.entity = entity
        self.key = key
    }
}

/// Why a policy could not do what it was asked; the migration stops with nothing installed.
public struct MigrationPolicyError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var description: String

    /// An error saying `description`.
    public init(_ description: String) {
        self.description = description
    }
}
