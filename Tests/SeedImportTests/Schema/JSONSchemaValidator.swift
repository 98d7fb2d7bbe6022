// A JSON Schema validator for the subset of draft 2020-12 the plan schema uses — type, enum,
// properties, required, additionalProperties (false or a schema), items, anyOf, $ref into $defs,
// pattern — and the JSON value a YAML editor sees in a plan (YAML 1.2's core schema: unquoted
// `yes` is a text, `5_000` a text, `0x1388` a number), so the tests check plans as editors do.
// The schema itself is read the same way (JSON is YAML).
import Foundation
import Yams

/// A JSON value.
enum JSONValue: Equatable {
    case null
    case bool(Bool)
    case number(Double, isInteger: Bool)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The value of a YAML document, scalars resolved by YAML 1.2's core schema.
    init(yaml node: Node) throws {
        switch node {
        case .scalar(let scalar):
            self = scalar.style == .plain || scalar.style == .any ? Self.plain(scalar.string) : .string(scalar.string)
        case .sequence(let sequence):
            self = .array(try sequence.map(JSONValue.init(yaml:)))
        case .mapping(let mapping):
            var object: [String: JSONValue] = [:]
            for (key, value) in mapping {
                guard case .scalar(let name) = key else { throw SchemaError("a key that is not a scalar") }
                object[name.string] = try JSONValue(yaml: value)
            }
            self = .object(object)
        case .alias:
            throw SchemaError("an alias (the plans checked here use none)")
        }
    }

    /// A plain scalar as YAML 1.2's core schema reads it.
    private static func plain(_ text: String) -> JSONValue {
        if ["", "~", "null", "Null", "NULL"].contains(text) { return .null }
        if ["true", "True", "TRUE"].contains(text) { return .bool(true) }
        if ["false", "False", "FALSE"].contains(text) { return .bool(false) }
        if text.wholeMatch(of: /[-+]?[0-9]+/) != nil, let value = Double(text) {
            return .number(value, isInteger: true)
        }
        if text.wholeMatch(of: /0o[0-7]+/) != nil, let value = Int(text.dropFirst(2), radix: 8) {
            return .number(Double(value), isInteger: true)
        }
        if text.wholeMatch(of: /0x[0-9a-fA-F]+/) != nil, let value = Int(text.dropFirst(2), radix: 16) {
            return .number(Double(value), isInteger: true)
        }
        if text.wholeMatch(of: /[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?/) != nil, let value = Double(text) {
            return .number(value, isInteger: false)
        }
        return .string(text)
    }

    /// The JSON Schema type names the value has (`integer` is also a `number`).
    var typeNames: Set<String> {
        switch self {
        case .null: ["null"]
        case .bool: ["boolean"]
        case .number(_, let isInteger): isInteger ? ["number", "integer"] : ["number"]
        case .string: ["string"]
        case .array: ["array"]
        case .object: ["object"]
        }
    }
}

/// A problem with a schema or a value the validator was given.
struct SchemaError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Validates JSON values against a schema; rejects schema keywords it does not implement.
struct JSONSchemaValidator {
    /// The keywords this validator understands; `description` and `title` are annotations.
    static let keywords: Set<String> = [
        "$schema", "$ref", "$defs", "title", "description", "type", "enum", "properties", "required",
        "additionalProperties", "items", "anyOf", "pattern",
    ]

    let root: JSONValue

    init(schema: JSONValue) throws {
        root = schema
        try Self.checkKeywords(schema, at: "#")
    }

    /// The problems of `value`, each `path: reason`; empty when it is valid.
    func problems(of value: JSONValue) throws -> [String] {
        try problems(of: value, against: root, at: "$")
    }

    private func problems(of value: JSONValue, against schema: JSONValue, at path: String) throws -> [String] {
        guard case .object(let keywords) = schema else {
            throw SchemaError("a schema that is not an object at \(path)")
        }
        var found: [String] = []
        if case .string(let reference)? = keywords["$ref"] {
            found += try problems(of: value, against: try resolve(reference), at: path)
        }
        if let types = keywords["type"] {
            let allowed = try Self.strings(types)
            if allowed.isDisjoint(with: value.typeNames) {
                found.append("\(path): expected \(allowed.sorted().joined(separator: " or ")), found \(value)")
                return found
            }
        }
        if case .array(let choices)? = keywords["enum"], !choices.contains(value) {
            found.append("\(path): \(value) is not one of \(choices)")
        }
        if case .string(let pattern)? = keywords["pattern"], case .string(let text) = value {
            if try Regex(pattern).firstMatch(in: text) == nil {
                found.append("\(path): '\(text)' does not match \(pattern)")
            }
        }
        if case .array(let alternatives)? = keywords["anyOf"] {
            let failures = try alternatives.map { try problems(of: value, against: $0, at: path) }
            if !failures.contains(where: \.isEmpty) {
                found.append(
                    "\(path): no alternative fits (\(failures.map { $0.joined(separator: ", ") }.joined(separator: " | ")))"
                )
            }
        }
        if case .object(let members) = value {
            found += try objectProblems(members, keywords, at: path)
        }
        if case .array(let elements) = value, let items = keywords["items"] {
            for (index, element) in elements.enumerated() {
                found += try problems(of: element, against: items, at: "\(path)[\(index)]")
            }
        }
        return found
    }

    private func objectProblems(_ members: [String: JSONValue], _ keywords: [String: JSONValue], at path: String)
        throws -> [String]
    {
        var found: [String] = []
        if let required = keywords["required"] {
            for name in try Self.strings(required).sorted() where members[name] == nil {
                found.append("\(path): missing \(name)")
            }
        }
        var properties: [String: JSONValue] = [:]
        if case .object(let declared)? = keywords["properties"] { properties = declared }
        for (name, member) in members.sorted(by: { $0.key < $1.key }) {
            if let schema = properties[name] {
                found += try problems(of: member, against: schema, at: "\(path).\(name)")
            } else if case .bool(false)? = keywords["additionalProperties"] {
                found.append("\(path): unknown key '\(name)'")
            } else if let schema = keywords["additionalProperties"], case .object = schema {
                found += try problems(of: member, against: schema, at: "\(path).\(name)")
            }
        }
        return found
    }

    /// The schema `#/$defs/name` names.
    private func resolve(_ reference: String) throws -> JSONValue {
        guard reference.hasPrefix("#/$defs/"), case .object(let keywords) = root,
            case .object(let definitions)? = keywords["$defs"],
            let schema = definitions[String(reference.dropFirst("#/$defs/".count))]
        else { throw SchemaError("cannot resolve \(reference)") }
        return schema
    }

    private static func strings(_ value: JSONValue) throws -> Set<String> {
        switch value {
        case .string(let text): return [text]
        case .array(let elements):
            return Set(
                try elements.map { element in
                    guard case .string(let text) = element else { throw SchemaError("expected names, found \(value)") }
                    return text
                })
        default: throw SchemaError("expected names, found \(value)")
        }
    }

    /// Throws for a keyword this validator would silently ignore.
    private static func checkKeywords(_ schema: JSONValue, at path: String) throws {
        guard case .object(let keywords) = schema else { return }
        for (keyword, value) in keywords {
            guard Self.keywords.contains(keyword) else {
                throw SchemaError("unsupported keyword \(keyword) at \(path)")
            }
            switch keyword {
            case "properties", "$defs":
                guard case .object(let schemas) = value else { continue }
                for (name, member) in schemas { try checkKeywords(member, at: "\(path)/\(keyword)/\(name)") }
            case "items", "additionalProperties":
                try checkKeywords(value, at: "\(path)/\(keyword)")
            case "anyOf":
                guard case .array(let alternatives) = value else { continue }
                for (index, alternative) in alternatives.enumerated() {
                    try checkKeywords(alternative, at: "\(path)/anyOf/\(index)")
                }
            default:
                continue
            }
        }
    }
}
