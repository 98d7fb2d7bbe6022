// The per-relationship choices of a copy (DeepCopyOptions.relationships) checked against the
// source model: each name must be `Entity.relationship` with the entity that declares a stored
// relationship; a link cut from one side cannot bring its destinations along from the other.
// Resolved here: which links are cut, which relationships bring their destinations along, and
// the entities those can reach from the ones asked for (closed transitively).
import GraphStore

/// Which relationships a copy cuts and which bring their destinations along.
struct RelationshipChoices {
    /// `Entity.relationship` of each relationship that is cut, as declared.
    private let cut: Set<String>
    /// The relationships that bring their destinations along, as declared, in name order.
    let bringingAlong: [ModelRelationship]

    init(_ choices: [String: RelationshipCopy], in model: ObjectModel) throws {
        var cut = Set<String>()
        var bringingAlong: [ModelRelationship] = []
        for (name, choice) in choices.sorted(by: { $0.key < $1.key }) {
            let relationship = try Self.relationship(named: name, in: model)
            switch choice {
            case .follow: continue
            case .cut: cut.insert(name)
            case .bringAlong: bringingAlong.append(relationship)
            }
        }
        for relationship in bringingAlong {
            guard let inverse = model.inverse(of: relationship), cut.contains(Self.name(of: inverse)) else { continue }
            throw DeepCopyError(
                "\(Self.name(of: inverse)) is cut, so its inverse \(Self.name(of: relationship)) cannot bring its destinations along"
            )
        }
        self.cut = cut
        self.bringingAlong = bringingAlong
    }

    /// Whether the link `relationship` is part of is cut (from either side).
    func cuts(_ relationship: ModelRelationship, inverse: ModelRelationship?) -> Bool {
        cut.contains(Self.name(of: relationship)) || inverse.map { cut.contains(Self.name(of: $0)) } ?? false
    }

    /// Whether some link is cut.
    var cutsAnything: Bool { !cut.isEmpty }

    /// The names of `selected` and of every entity whose objects the relationships bringing
    /// their destinations along can reach from them, directly or through one another.
    func reach(from selected: Set<String>, in model: ObjectModel) -> Set<String> {
        var reached = selected
        var grew = true
        while grew {
            grew = false
            for relationship in bringingAlong {
                guard let owner = model.entity(named: relationship.declaringEntity),
                    owner.kindIndices.contains(where: { reached.contains(model.entities[$0].name) })
                else { continue }
                for index in model.destination(of: relationship).kindIndices
                where reached.insert(model.entities[index].name).inserted {
                    grew = true
                }
            }
        }
        return reached
    }

    /// `Entity.relationship` as declared.
    static func name(of relationship: ModelRelationship) -> String {
        relationship.declaringEntity + "." + relationship.name
    }

    /// The stored relationship `name` (`Entity.relationship`) names, declared on that entity.
    private static func relationship(named name: String, in model: ObjectModel) throws -> ModelRelationship {
        let parts = name.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw DeepCopyError("\"\(name)\": a relationship is named Entity.relationship")
        }
        guard let entity = model.entity(named: parts[0]) else {
            throw DeepCopyError("\(name): the source has no entity \(parts[0])")
        }
        guard let relationship = entity.relationship(named: parts[1]) else {
            throw DeepCopyError("\(name): \(parts[0]) has no relationship \(parts[1])")
        }
        guard relationship.declaringEntity == entity.name else {
            throw DeepCopyError(
                "\(name): the relationship is declared on \(relationship.declaringEntity); name it \(self.name(of: relationship))"
            )
        }
        guard !relationship.isTransient else { throw DeepCopyError("\(name) is transient: it is never copied") }
        return relationship
    }
}
