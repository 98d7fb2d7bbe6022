// Writes the Swift code of one entity: a struct conforming to GraphStore's `EntityObject`, its
// typed keys (`Item.Keys.price`), and a throwing getter and setter methods per property
// (docs/CodeGeneration.md shows the result for the catalog).
// Invariants: the output depends only on the model (entities, properties and their order are the
// model's, which are sorted), never on the file it came from or the time; every property of the
// entity, inherited ones included, gets its accessors, so a sub-entity's type stands on its own.
import GraphStore

/// The code of one entity.
struct EntityCodeWriter {
    let model: ObjectModel
    let entity: ModelEntity
    /// The Swift type's name.
    let typeName: String
    /// The access modifier with its trailing space (`public `), or empty for internal.
    let access: String
    /// The Swift type name of every entity, by entity name.
    let typeNames: [String: String]

    /// The declarations, without file header or imports.
    func write(into lines: inout SourceLines) {
        writeType(into: &lines)
        lines.separate()
        writeKeys(into: &lines)
        if !entity.attributes.isEmpty {
            lines.separate()
            lines.block("extension \(typeName)") { body in
                for attribute in entity.attributes { writeAccessors(of: attribute, into: &body) }
            }
        }
        if !entity.relationships.isEmpty {
            lines.separate()
            lines.block("extension \(typeName)") { body in
                for relationship in entity.relationships { writeAccessors(of: relationship, into: &body) }
            }
        }
    }

    /// The names of the members the code declares on instances, for clash checks: each
    /// property's getter and setter methods.
    var instanceMemberNames: [(member: String, property: String)] {
        entity.attributes.flatMap { attribute in
            [attribute.name, "set" + SwiftNames.capitalized(attribute.name)].map { ($0, attribute.name) }
        }
            + entity.relationships.flatMap { relationship in
                accessorNames(of: relationship).map { ($0, relationship.name) }
            }
    }

    // MARK: - The type

    private func writeType(into lines: inout SourceLines) {
        lines.add("/// An object of the entity `\(entity.name)` of the model `\(model.name)`\(kindNote).")
        lines.block("\(access)struct \(typeName): GraphStore.EntityObject") { body in
            body.add("/// The entity's name in the model.")
            body.add("\(access)static let entityName = \(SwiftNames.stringLiteral(entity.name))")
            body.separate()
            body.add("/// The managed object this value gives typed access to.")
            body.add("\(access)let object: GraphStore.ManagedObject")
            body.separate()
            body.add("/// Wraps `object` without checking its entity (`init(_:)` checks it).")
            body.block("\(access)init(unchecked object: GraphStore.ManagedObject)") { initializer in
                initializer.add("self.object = object")
            }
        }
    }

    /// `, abstract, a sub-entity of `Location``, or nothing.
    private var kindNote: String {
        var notes: [String] = []
        if entity.isAbstract { notes.append("abstract") }
        if let parent = entity.parentIndex.map({ model.entities[$0].name }) {
            notes.append("a sub-entity of `\(parent)`")
        }
        return notes.isEmpty ? "" : " (" + notes.joined(separator: ", ") + ")"
    }

    // MARK: - Keys

    private func writeKeys(into lines: inout SourceLines) {
        lines.block("extension \(typeName)") { body in
            body.add("/// Typed keys of the properties of `\(entity.name)`, for predicates and sort descriptors")
            if let example = entity.attributes.first(where: { SwiftNames.valueType(of: $0.type) != nil }) {
                body.add("/// (`\(typeName).fetch(in: context, where: \(typeName).Keys.\(example.name) == value)`).")
            } else {
                body.add("/// (`\(typeName).fetch(in: context, where: predicate)`).")
            }
            body.block("\(access)enum Keys") { keys in
                for attribute in entity.attributes {
                    guard let value = SwiftNames.valueType(of: attribute.type) else { continue }
                    keys.add("/// \(summary(of: attribute))")
                    keys.add(
                        "\(access)static let \(SwiftNames.identifier(attribute.name)) = "
                            + "GraphStore.AttributeKey<\(typeName), \(value)>(\(SwiftNames.stringLiteral(attribute.name)))"
                    )
                }
                for relationship in entity.relationships {
                    let kind = relationship.isToMany ? "ToManyKey" : "ToOneKey"
                    keys.add("/// \(summary(of: relationship))")
                    keys.add(
                        "\(access)static let \(SwiftNames.identifier(relationship.name)) = "
                            + "GraphStore.\(kind)<\(typeName), \(destinationType(of: relationship))>"
                            + "(\(SwiftNames.stringLiteral(relationship.name)))")
                }
            }
        }
    }

    // MARK: - Attributes

    private func writeAccessors(of attribute: ModelAttribute, into lines: inout SourceLines) {
        let name = SwiftNames.identifier(attribute.name)
        let setter = "set" + SwiftNames.capitalized(attribute.name)
        lines.separate()
        lines.add("/// \(summary(of: attribute))")
        guard let value = SwiftNames.valueType(of: attribute.type) else {
            // Transformable: whatever the attribute's registered codec decodes.
            lines.block("\(access)var \(name): (any Swift.Sendable)?") { getter in
                getter.add("get throws { try object.transformable(\(SwiftNames.stringLiteral(attribute.name))) }")
            }
            lines.separate()
            lines.add("/// Sets `\(attribute.name)`, encoded by its codec; nil clears it.")
            lines.block("\(access)func \(setter)(_ newValue: (any Swift.Sendable)?) throws") { body in
                body.add("try object.setTransformable(\(SwiftNames.stringLiteral(attribute.name)), newValue)")
            }
            return
        }
        let key = "Keys.\(name)"
        if attribute.isOptional {
            lines.block("\(access)var \(name): \(value)?") { getter in
                getter.add("get throws { try \(key).value(in: object) }")
            }
        } else {
            lines.block("\(access)var \(name): \(value)") { getter in
                getter.add("get throws { try \(key).requiredValue(in: object) }")
            }
        }
        lines.separate()
        lines.add("/// Sets `\(attribute.name)`\(attribute.isOptional ? "; nil clears it" : "").")
        let parameter = attribute.isOptional ? "\(value)?" : value
        lines.block("\(access)func \(setter)(_ newValue: \(parameter)) throws") { body in
            body.add("try \(key).set(newValue, in: object)")
        }
    }

    /// `` `price`: double, optional. ``
    private func summary(of attribute: ModelAttribute) -> String {
        var text = "`\(attribute.name)`: \(attribute.type.rawValue)"
        text += attribute.isOptional ? ", optional" : ", required (reading it before it is set throws)"
        if attribute.isTransient { text += ", transient (never stored)" }
        if attribute.declaringEntity != entity.name { text += ", from `\(attribute.declaringEntity)`" }
        return text + "."
    }

    // MARK: - Relationships

    private func writeAccessors(of relationship: ModelRelationship, into lines: inout SourceLines) {
        let name = SwiftNames.identifier(relationship.name)
        let suffix = SwiftNames.capitalized(relationship.name)
        let destination = destinationType(of: relationship)
        let key = "Keys.\(name)"
        lines.separate()
        lines.add("/// \(summary(of: relationship))")
        guard relationship.isToMany else {
            let optional = relationship.declaration.isOptional
            lines.block("\(access)var \(name): \(destination)\(optional ? "?" : "")") { getter in
                getter.add("get throws { try \(key).\(optional ? "destination" : "requiredDestination")(in: object) }")
            }
            lines.separate()
            lines.add("/// Links `\(relationship.name)` (the inverse follows)\(optional ? "; nil unlinks it" : "").")
            lines.block("\(access)func set\(suffix)(_ newValue: \(destination)\(optional ? "?" : "")) throws") { body in
                body.add("try \(key).set(newValue, in: object)")
            }
            return
        }
        let collection = relationship.isOrdered ? "[\(destination)]" : "Swift.Set<\(destination)>"
        lines.block("\(access)var \(name): \(collection)") { getter in
            let members = "try \(key).members(in: object)"
            getter.add("get throws { \(relationship.isOrdered ? members : "Swift.Set(\(members))") }")
        }
        lines.separate()
        lines.add(
            "/// Makes `\(relationship.name)` hold exactly `members`\(relationship.isOrdered ? ", in order" : "").")
        lines.block("\(access)func set\(suffix)(_ members: \(collection)) throws") { body in
            body.add("try \(key).set(members, in: object)")
        }
        lines.separate()
        lines.add("/// Adds `member` to `\(relationship.name)`\(relationship.isOrdered ? " (at the end)" : "").")
        lines.block("\(access)func addTo\(suffix)(_ member: \(destination)) throws") { body in
            body.add("try \(key).add(member, in: object)")
        }
        lines.separate()
        lines.add("/// Removes `member` from `\(relationship.name)`.")
        lines.block("\(access)func removeFrom\(suffix)(_ member: \(destination)) throws") { body in
            body.add("try \(key).remove(member, in: object)")
        }
        guard relationship.isOrdered else { return }
        lines.separate()
        lines.add("/// Inserts `member` into `\(relationship.name)` at `position` (moving it there if it is a member).")
        lines.block("\(access)func insertInto\(suffix)(_ member: \(destination), at position: Swift.Int) throws") {
            body in
            body.add("try \(key).insert(member, at: position, in: object)")
        }
        lines.separate()
        lines.add("/// Moves the member of `\(relationship.name)` at `source` to `destination`.")
        lines.block("\(access)func move\(suffix)(from source: Swift.Int, to destination: Swift.Int) throws") { body in
            body.add("try \(key).move(from: source, to: destination, in: object)")
        }
    }

    /// The instance methods the accessors of `relationship` declare, its property included.
    private func accessorNames(of relationship: ModelRelationship) -> [String] {
        let suffix = SwiftNames.capitalized(relationship.name)
        guard relationship.isToMany else { return [relationship.name, "set" + suffix] }
        let common = [relationship.name, "set" + suffix, "addTo" + suffix, "removeFrom" + suffix]
        return relationship.isOrdered ? common + ["insertInto" + suffix, "move" + suffix] : common
    }

    /// `` `unit`: to-one `Unit`, optional, inverse `items`. ``
    private func summary(of relationship: ModelRelationship) -> String {
        let destination = model.destination(of: relationship).name
        var text = "`\(relationship.name)`: "
        text += relationship.isToMany ? (relationship.isOrdered ? "ordered to-many" : "to-many") : "to-one"
        text += " `\(destination)`"
        if !relationship.isToMany { text += relationship.declaration.isOptional ? ", optional" : ", required" }
        if let inverse = relationship.declaration.inverse { text += ", inverse `\(inverse)`" }
        if relationship.isTransient { text += ", transient (never stored)" }
        if relationship.declaringEntity != entity.name { text += ", from `\(relationship.declaringEntity)`" }
        return text + "."
    }

    /// The Swift type of `relationship`'s destination.
    private func destinationType(of relationship: ModelRelationship) -> String {
        let destination = model.destination(of: relationship).name
        return typeNames[destination] ?? destination
    }
}
