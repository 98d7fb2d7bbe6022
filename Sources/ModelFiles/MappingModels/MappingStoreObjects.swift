// MappingStoreObjects: the `<object>` elements of an `xcmapping.xml` — a Core Data XML store of
// Xcode's editor objects (XDDEVMAPPINGMODEL, XDDEVENTITYMAPPING, XDDEVATTRIBUTEMAPPING,
// XDDEVRELATIONSHIPMAPPING) — as records of typed attribute values and relationship targets.
// Names are compared without case, as the GNUstep reader compares them; names the format does
// not have are passed over with a warning; the values of known names are checked (integers,
// booleans, base64) and errors carry the element's line.
import Foundation

/// One object of the store: its type, id, attributes and relationships.
struct MappingStoreObject {
    /// The object's type, upper-cased (`XDDEVENTITYMAPPING`).
    let type: String
    /// The object's id (`z105`).
    let id: String
    /// The line of its `<object>` element.
    let line: Int
    /// Attribute values by lower-cased name, with their lines.
    private(set) var attributes: [String: (text: String, line: Int)] = [:]
    /// Relationship targets (object ids) by lower-cased name, with their lines.
    private(set) var relationships: [String: (ids: [String], line: Int)] = [:]

    /// The attribute and relationship names each object type has; other names are warned about.
    static let knownNames: [String: (attributes: Set<String>, relationships: Set<String>)] = {
        // Read by Xcode's compiler or, for the GNUstep port's extra names, accepted as it accepts them.
        let extra: Set<String> = [
            "sourceexpressiondata", "sourcefilterpredicatestring", "userinfodata", "sourcekeypath", "sourcemappingname",
        ]
        let property: Set<String> = ["name", "valueexpressiondata", "autogenerateexpression"]
        return [
            "XDDEVMAPPINGMODEL": (
                ["sourcemodelpath", "sourcemodeldata", "destinationmodelpath", "destinationmodeldata"],
                ["entitymappings"]
            ),
            "XDDEVENTITYMAPPING": (
                extra.union([
                    "sourcename", "destinationname", "mappingtypename", "mappingnumber", "autogenerateexpression",
                    "migrationpolicyclassname", "name",
                ]),
                ["mappingmodel", "attributemappings", "relationshipmappings"]
            ),
            "XDDEVATTRIBUTEMAPPING": (property.union(extra), ["entitymapping"]),
            "XDDEVRELATIONSHIPMAPPING": (property.union(extra), ["entitymapping"]),
        ]
    }()

    /// The object of an `<object>` element; unknown names are added to `warnings`.
    init(_ element: XcodeModelElement, file: String, warnings: inout [String]) throws(MappingModelError) {
        guard let type = Self.attribute("type", of: element), let id = Self.attribute("id", of: element), !id.isEmpty
        else {
            throw MappingModelError(file: file, line: element.line, message: "an <object> without a type or an id")
        }
        self.type = type.uppercased()
        self.id = id
        line = element.line
        let known = Self.knownNames[self.type]
        if known == nil { warnings.append("line \(line): unknown object type '\(type)' (object \(id)) passed over") }
        for child in element.children {
            let name = (Self.attribute("name", of: child) ?? "").lowercased()
            switch child.name.lowercased() {
            case "attribute":
                if let known, !known.attributes.contains(name) {
                    warnings.append("line \(child.line): unknown attribute '\(name)' of \(self.type) \(id) passed over")
                }
                attributes[name] = (child.text, child.line)
            case "relationship":
                if let known, !known.relationships.contains(name) {
                    warnings.append(
                        "line \(child.line): unknown relationship '\(name)' of \(self.type) \(id) passed over")
                }
                let ids = (Self.attribute("idrefs", of: child) ?? "").split(whereSeparator: \.isWhitespace).map(
                    String.init)
                relationships[name] = (ids, child.line)
            default:
                warnings.append("line \(child.line): unknown element <\(child.name)> in object \(id) passed over")
            }
        }
    }

    /// The XML attribute `key` (lower case) of `element`, whatever its case in the file.
    static func attribute(_ key: String, of element: XcodeModelElement) -> String? {
        element[key] ?? element.attributes.first { $0.key.lowercased() == key }?.value
    }

    /// The string attribute `name` without surrounding white space, if present and not blank.
    func string(_ name: String) -> String? {
        guard let text = attributes[name]?.text.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else {
            return nil
        }
        return text
    }

    /// The line of attribute `name`, or of the object.
    func line(of name: String) -> Int { attributes[name]?.line ?? relationships[name]?.line ?? line }

    /// The integer attribute `name` (`int16`), if present; `error` makes the error for a bad value.
    func integer(_ name: String, failure: (String, Int) -> MappingModelError) throws(MappingModelError) -> Int? {
        guard let text = string(name) else { return nil }
        guard let value = Int(text) else { throw failure("\(name) '\(text)' is not an integer", line(of: name)) }
        return value
    }

    /// The boolean attribute `name` (`1`/`0`, `YES`/`NO`, `true`/`false`), if present.
    func boolean(_ name: String, failure: (String, Int) -> MappingModelError) throws(MappingModelError) -> Bool? {
        guard let text = string(name) else { return nil }
        switch text.lowercased() {
        case "1", "yes", "true": return true
        case "0", "no", "false": return false
        default: throw failure("\(name) '\(text)' is not a boolean", line(of: name))
        }
    }

    /// The binary attribute `name` decoded as an archived expression, if present.
    func expression(_ name: String, failure: (String, Int) -> MappingModelError) throws(MappingModelError)
        -> MappingExpression?
    {
        guard let text = string(name) else { return nil }
        guard let data = Data(base64Encoded: text.filter { !$0.isWhitespace }) else {
            throw failure("\(name) is not base64", line(of: name))
        }
        do {
            return try MappingExpression(archive: data)
        } catch {
            throw failure("\(name): \(error)", line(of: name))
        }
    }

    /// The ids of relationship `name` (none when absent).
    func targets(_ name: String) -> [String] { relationships[name]?.ids ?? [] }
}
