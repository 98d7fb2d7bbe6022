// Reads the `<model>` root of an Xcode model's `contents` file into entity declarations and fetch
// request templates, for both eras of the format (Xcode 4–8 and Xcode 9+), and the `<userInfo>`
// entries on entities, attributes and relationships. Attributes: XcodeModelAttributes.swift.
// What is read and what is ignored is listed in docs/XcodeModels.md.
// Invariants: reading never stops at the first problem; every problem carries the line of its
// element; the line of every entity, property, index and unique constraint is remembered so that
// the validator's problems (which know entity and property only) can be located too.
import GraphStore
import Logging

/// The declarations of one `contents` file and the problems found while reading them.
struct XcodeModelContents {
    /// The entities, in file order.
    private(set) var entities: [EntityDescription] = []
    /// The model's `<fetchRequest>` templates, in file order.
    private(set) var templates: [FetchRequestTemplate] = []
    /// Every problem found, each message starting with `line N:`.
    private(set) var problems: [ModelProblem] = []
    private var lines: [LineKey: Int] = [:]
    private var templateLines: [Int] = []  // parallel to `templates`

    /// Where a declaration was written: an entity, or a property, index or constraint of one.
    private struct LineKey: Hashable {
        var entity: String?
        var property: String?
    }

    /// Reads the declarations under `root`, which must be a `<model>` element.
    init(root: XcodeModelElement) {
        guard root.name == "model" else {
            report(root, message: "the root element is <\(root.name)>, expected <model>")
            return
        }
        for child in root.children {
            switch child.name {
            case "entity": readEntity(child)
            case "fetchRequest": readTemplate(child)
            case "elements": break  // diagram positions
            default: modelLog.debug("line \(child.line): <\(child.name)> is not read (docs/XcodeModels.md)")
            }
        }
        checkTemplateEntities()
    }

    /// `problem` with the line of what it names (its property, else its entity) in front of its message.
    func located(_ problem: ModelProblem) -> ModelProblem {
        let line =
            lines[LineKey(entity: problem.entity, property: problem.property)]
            ?? lines[LineKey(entity: problem.entity, property: nil)]
        guard let line, problem.entity != nil else { return problem }
        var located = problem
        located.message = "line \(line): \(problem.message)"
        return located
    }

    // MARK: - Entities

    private mutating func readEntity(_ element: XcodeModelElement) {
        guard let name = requiredName(of: element, entity: nil) else { return }
        remember(element, entity: name, property: nil)
        var entity = EntityDescription(
            name: name, parent: nonEmpty(element["parentEntity"]), isAbstract: element.flag("isAbstract"),
            userInfo: XcodeModelUserInfo.entries(in: element))
        entity.renamingIdentifier = XcodeModelVersioning.renamingIdentifier(of: element)
        entity.hashModifier = XcodeModelVersioning.hashModifier(of: element)
        for child in element.children {
            switch child.name {
            case "attribute": readAttribute(child, into: &entity)
            case "relationship": readRelationship(child, into: &entity)
            case "fetchIndex": readFetchIndex(child, into: &entity)
            case "compoundIndexes":
                for index in child.children(named: "compoundIndex") { readCompoundIndex(index, into: &entity) }
            case "uniquenessConstraints":
                for constraint in child.children(named: "uniquenessConstraint") {
                    readUniquenessConstraint(constraint, into: &entity)
                }
            case "fetchedProperty": readFetchedProperty(child, into: &entity)
            default: break  // <userInfo> (read above), and anything newer
            }
        }
        entities.append(entity)
    }

    private mutating func readAttribute(_ element: XcodeModelElement, into entity: inout EntityDescription) {
        guard let name = requiredName(of: element, entity: entity.name) else { return }
        remember(element, entity: entity.name, property: name)
        do {
            entity.attributes.append(try XcodeModelAttributes.attribute(from: element, name: name))
        } catch {
            report(element, entity: entity.name, property: name, message: error.message)
        }
    }

    private mutating func readRelationship(_ element: XcodeModelElement, into entity: inout EntityDescription) {
        guard let name = requiredName(of: element, entity: entity.name) else { return }
        remember(element, entity: entity.name, property: name)
        guard let destination = nonEmpty(element["destinationEntity"]) else {
            return report(
                element, entity: entity.name, property: name, message: "the relationship names no destinationEntity")
        }
        if let inverseEntity = nonEmpty(element["inverseEntity"]), inverseEntity != destination {
            report(
                element, entity: entity.name, property: name,
                message: "inverseEntity '\(inverseEntity)' is not the destination entity '\(destination)'")
        }
        guard let deleteRule = Self.deleteRule(named: element["deletionRule"]) else {
            return report(
                element, entity: entity.name, property: name,
                message: "unknown deletionRule '\(element["deletionRule"] ?? "")'")
        }
        guard let minCount = Self.count(element["minCount"]), let maxCount = Self.count(element["maxCount"]) else {
            return report(
                element, entity: entity.name, property: name, message: "minCount and maxCount must be whole numbers")
        }
        // Xcode writes maxCount="1" (and older versions minCount="1") on to-ones: the maximum of a
        // to-one is 1 by definition; its minimum is kept as written, for Core Data's version hash.
        let isToMany = element.flag("toMany")
        var relationship = RelationshipDescription(
            name: name, destination: destination, inverse: nonEmpty(element["inverseName"]),
            isToMany: isToMany, isOrdered: element.flag("ordered"), isOptional: element.flag("optional"),
            minCount: minCount, maxCount: isToMany ? maxCount : 0, deleteRule: deleteRule,
            isTransient: element.flag("transient"), userInfo: XcodeModelUserInfo.entries(in: element))
        relationship.renamingIdentifier = XcodeModelVersioning.renamingIdentifier(of: element)
        relationship.hashModifier = XcodeModelVersioning.hashModifier(of: element)
        relationship.isReadOnly = element.flag("readOnly")
        entity.relationships.append(relationship)
    }

    /// The delete rule Xcode calls `name` (an absent rule is Core Data's default, nullify).
    private static func deleteRule(named name: String?) -> DeleteRule? {
        switch name {
        case nil, "Nullify": .nullify
        case "Cascade": .cascade
        case "Deny": .deny
        case "No Action": .noAction
        default: nil
        }
    }

    /// A relationship count; absent means 0 (no limit).
    private static func count(_ text: String?) -> Int? {
        guard let text, !text.isEmpty else { return 0 }
        return Int(text)
    }

    // MARK: - Indexes and constraints

    /// An Xcode 9+ `<fetchIndex name=""><fetchIndexElement property="" type="Binary" order=""/></fetchIndex>`.
    private mutating func readFetchIndex(_ element: XcodeModelElement, into entity: inout EntityDescription) {
        guard let name = requiredName(of: element, entity: entity.name) else { return }
        remember(element, entity: entity.name, property: name)
        var elements: [IndexElement] = []
        for item in element.children(named: "fetchIndexElement") {
            guard let property = nonEmpty(item["property"]) else {
                let message =
                    item["expression"] != nil
                    ? "expression index elements are not supported" : "an index element names no property"
                return report(item, entity: entity.name, property: name, message: message)
            }
            guard item["order"] == nil || item["order"] == "ascending" || item["order"] == "descending" else {
                return report(
                    item, entity: entity.name, property: name, message: "unknown index order '\(item["order"] ?? "")'")
            }
            elements.append(IndexElement(property, ascending: item["order"] != "descending"))
        }
        entity.indexes.append(IndexDescription(name: name, elements: elements))
    }

    /// An Xcode 8 `<compoundIndex><index value=""/>…</compoundIndex>`: unnamed and ascending, so it
    /// is named `compoundIndex_` followed by its properties joined with `_`.
    private mutating func readCompoundIndex(_ element: XcodeModelElement, into entity: inout EntityDescription) {
        let properties = element.children(named: "index").compactMap { nonEmpty($0["value"]) }
        let name = (["compoundIndex"] + properties).joined(separator: "_")
        remember(element, entity: entity.name, property: name)
        entity.indexes.append(IndexDescription(name: name, elements: properties.map { IndexElement($0) }))
    }

    /// A `<uniquenessConstraint><constraint value=""/>…</uniquenessConstraint>`.
    private mutating func readUniquenessConstraint(_ element: XcodeModelElement, into entity: inout EntityDescription) {
        let names = element.children(named: "constraint").compactMap { nonEmpty($0["value"]) }
        // The validator names a constraint this way in its problems.
        remember(element, entity: entity.name, property: "unique constraint [" + names.joined(separator: ", ") + "]")
        entity.uniqueConstraints.append(names)
    }

    // MARK: - Fetch request templates

    /// `<fetchedProperty name="…"><fetchRequest entity="…" predicateString="…"/></fetchedProperty>`.
    private mutating func readFetchedProperty(_ element: XcodeModelElement, into entity: inout EntityDescription) {
        guard let name = requiredName(of: element, entity: entity.name) else { return }
        remember(element, entity: entity.name, property: name)
        guard let request = element.children(named: "fetchRequest").first, let destination = nonEmpty(request["entity"])
        else {
            return report(element, message: "fetched property '\(name)' names no entity")
        }
        entity.fetchedProperties.append(
            FetchedPropertyDescription(
                name: name, entity: destination,
                predicateFormat: nonEmpty(request["predicateString"]) ?? "TRUEPREDICATE"))
    }

    private mutating func readTemplate(_ element: XcodeModelElement) {
        guard let name = requiredName(of: element, entity: nil) else { return }
        guard let entity = nonEmpty(element["entity"]) else {
            return report(element, message: "fetch request '\(name)' names no entity")
        }
        templates.append(
            FetchRequestTemplate(
                name: name, entity: entity, predicateFormat: nonEmpty(element["predicateString"]) ?? "TRUEPREDICATE"))
        templateLines.append(element.line)
    }

    private mutating func checkTemplateEntities() {
        let names = Set(entities.map(\.name))
        for (template, line) in zip(templates, templateLines) where !names.contains(template.entity) {
            problems.append(
                ModelProblem(
                    message: "line \(line): fetch request '\(template.name)' names unknown entity '\(template.entity)'")
            )
        }
    }

    // MARK: - Helpers

    private func nonEmpty(_ text: String?) -> String? {
        text.flatMap { $0.isEmpty ? nil : $0 }
    }

    private mutating func requiredName(of element: XcodeModelElement, entity: String?) -> String? {
        guard let name = nonEmpty(element["name"]) else {
            report(element, entity: entity, message: "<\(element.name)> has no name")
            return nil
        }
        return name
    }

    /// Remembers where a declaration was written; the first of duplicates wins.
    private mutating func remember(_ element: XcodeModelElement, entity: String?, property: String?) {
        let key = LineKey(entity: entity, property: property)
        if lines[key] == nil { lines[key] = element.line }
    }

    private mutating func report(
        _ element: XcodeModelElement, entity: String? = nil, property: String? = nil, message: String
    ) {
        problems.append(ModelProblem(entity: entity, property: property, message: "line \(element.line): \(message)"))
    }
}

/// Reads the `<userInfo>` child Xcode writes on entities, attributes and relationships.
enum XcodeModelUserInfo {
    /// The `<entry key="" value=""/>` pairs of `element`'s `<userInfo>` children (a later key wins).
    static func entries(in element: XcodeModelElement) -> [String: String] {
        var result: [String: String] = [:]
        for entry in element.children(named: "userInfo").flatMap({ $0.children(named: "entry") }) {
            guard let key = entry["key"] else { continue }
            result[key] = entry["value"] ?? ""
        }
        return result
    }
}

/// Reads what Xcode writes for model versions on entities, attributes and relationships.
enum XcodeModelVersioning {
    /// The Renaming ID: `elementID` as Xcode writes it, or a `renamingIdentifier` attribute.
    static func renamingIdentifier(of element: XcodeModelElement) -> String? {
        [element["elementID"], element["renamingIdentifier"]].compactMap { $0 }.first { !$0.isEmpty }
    }

    /// The Version Hash Modifier (`versionHashModifier`), when not empty.
    static func hashModifier(of element: XcodeModelElement) -> String? {
        element["versionHashModifier"].flatMap { $0.isEmpty ? nil : $0 }
    }
}
