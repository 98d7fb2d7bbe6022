// MappingModel: what an Xcode mapping model (`.xcmappingmodel`) says — the two model versions it
// maps between, and its entity mappings with their attribute and relationship mappings and
// decoded value expressions. Read by MappingModelReader; executed by the migration.
import Foundation

/// An Xcode mapping model: how the objects of one model version become those of another.
public struct MappingModel: Sendable, Hashable {
    /// The model version migrated from.
    public var source: MappingModelVersion
    /// The model version migrated to.
    public var destination: MappingModelVersion
    /// The entity mappings, in the editor's order (`mappingnumber`), then by name.
    public var entityMappings: [EntityMapping]
    /// What the reader passed over, each with its line (unknown element, attribute or relationship names).
    public var warnings: [String]

    /// A mapping model with these parts.
    public init(
        source: MappingModelVersion, destination: MappingModelVersion, entityMappings: [EntityMapping],
        warnings: [String] = []
    ) {
        self.source = source
        self.destination = destination
        self.entityMappings = entityMappings
        self.warnings = warnings
    }

    /// The entity mapping called `name`, if there is one.
    public func entityMapping(named name: String) -> EntityMapping? {
        entityMappings.first { $0.name == name }
    }
}

/// A model version a mapping model names, from its path in the Xcode project.
///
/// Only the last two path components count (`Model.xcdatamodeld/Model 2.xcdatamodel`): what comes
/// before is the project path when the mapping was made, often stale.
public struct MappingModelVersion: Sendable, Hashable {
    /// The path as the mapping model stores it.
    public var path: String
    /// The model's name (`Model` for `Model.xcdatamodeld`), if the version sits in one.
    public var modelName: String?
    /// The version's name (`Model 2` for `Model 2.xcdatamodel`).
    public var versionName: String

    /// The version named by `path`.
    public init(path: String) {
        self.path = path
        let components = path.split(separator: "/").map(String.init)
        versionName = Self.removingExtension("xcdatamodel", from: components.last ?? path)
        let parent = components.dropLast().last
        modelName = parent.flatMap {
            $0.lowercased().hasSuffix(".xcdatamodeld") ? Self.removingExtension("xcdatamodeld", from: $0) : nil
        }
    }

    private static func removingExtension(_ suffix: String, from name: String) -> String {
        name.lowercased().hasSuffix("." + suffix) ? String(name.dropLast(suffix.count + 1)) : name
    }
}

/// How one source entity's objects become destination objects.
public struct EntityMapping: Sendable, Hashable {
    /// What an entity mapping does, derived from which entities it names.
    public enum Kind: String, Sendable, Hashable {
        /// No source entity: destination objects made by a migration policy.
        case add
        /// No destination entity: the source entity's objects are dropped.
        case remove
        /// Source objects become destination objects.
        case transform
    }

    /// The mapping's name: its `name`, else `<source>To<destination>` (a missing side is empty).
    public var name: String
    /// What the mapping does.
    public var kind: Kind
    /// The source entity's name.
    public var sourceEntity: String?
    /// The destination entity's name.
    public var destinationEntity: String?
    /// The editor's order (`mappingnumber`).
    public var number: Int
    /// The `NSEntityMigrationPolicy` subclass named for this mapping, as written (`Module.Class`).
    public var policyClassName: String?
    /// The mappings of destination attributes, by name.
    public var attributeMappings: [PropertyMapping]
    /// The mappings of destination relationships, by name.
    public var relationshipMappings: [PropertyMapping]
    /// The predicate that selects the source objects (`sourcefilterpredicatestring`), if any.
    public var sourceFilterPredicate: String?
    /// The expression that fetches the source objects (`sourceexpressiondata`), if any.
    public var sourceExpression: MappingExpression?
    /// Whether Xcode generates the expressions of blank property mappings (`autogenerateexpression`).
    public var generatesExpressions: Bool

    /// An entity mapping with these parts.
    public init(
        name: String, kind: Kind, sourceEntity: String?, destinationEntity: String?, number: Int,
        policyClassName: String? = nil, attributeMappings: [PropertyMapping] = [],
        relationshipMappings: [PropertyMapping] = [], sourceFilterPredicate: String? = nil,
        sourceExpression: MappingExpression? = nil, generatesExpressions: Bool = true
    ) {
        self.name = name
        self.kind = kind
        self.sourceEntity = sourceEntity
        self.destinationEntity = destinationEntity
        self.number = number
        self.policyClassName = policyClassName
        self.attributeMappings = attributeMappings
        self.relationshipMappings = relationshipMappings
        self.sourceFilterPredicate = sourceFilterPredicate
        self.sourceExpression = sourceExpression
        self.generatesExpressions = generatesExpressions
    }
}

/// How one destination attribute or relationship gets its value.
public struct PropertyMapping: Sendable, Hashable {
    /// The destination property's name.
    public var name: String
    /// The value expression; nil when the mapping is blank.
    public var valueExpression: MappingExpression?
    /// Whether Xcode generates the expression of this mapping when it is blank (`autogenerateexpression`).
    public var generatesExpression: Bool

    /// A property mapping with these parts.
    public init(name: String, valueExpression: MappingExpression? = nil, generatesExpression: Bool = false) {
        self.name = name
        self.valueExpression = valueExpression
        self.generatesExpression = generatesExpression
    }
}
