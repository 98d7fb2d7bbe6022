// MappingExpression: the value expressions of Xcode mapping models (the NSExpressions Xcode
// archives in `valueexpressiondata`), as SeedKit values with their NSExpression format text.
// Decoding from the archive: MappingExpressionDecoder.swift.
import Foundation

/// A value expression of a mapping model's attribute or relationship mapping.
///
/// ```swift
/// let expression = try MappingExpression(archive: valueExpressionData)
/// expression.format   // "$source.abc"
/// ```
public indirect enum MappingExpression: Sendable, Hashable, CustomStringConvertible {
    /// A variable: `$source`, `$manager`, `$entityPolicy`, … (the name without `$`).
    case variable(String)
    /// A key path from a variable: `$source.owner.name` is `.keyPath(variable: "source", ["owner", "name"])`.
    case keyPath(variable: String, [String])
    /// A constant: `"ItemToItem"`, `42`, `2.5`, `TRUE`, `nil`.
    case constant(MappingConstant)
    /// A method called on a target with arguments, written `FUNCTION(target, "selector", arguments…)`:
    /// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "ItemToItem", $source)`.
    case function(target: MappingExpression, selector: String, arguments: [MappingExpression])

    /// The expression in NSExpression format syntax.
    public var format: String {
        switch self {
        case .variable(let name):
            return "$" + name
        case .keyPath(let variable, let components):
            return (["$" + variable] + components).joined(separator: ".")
        case .constant(let constant):
            return constant.format
        case .function(let target, let selector, let arguments):
            let parts = [target.format, MappingConstant.string(selector).format] + arguments.map(\.format)
            return "FUNCTION(" + parts.joined(separator: ", ") + ")"
        }
    }

    /// The format text.
    public var description: String { format }
}

/// A constant of a mapping expression.
public enum MappingConstant: Sendable, Hashable {
    /// A string.
    case string(String)
    /// An integer.
    case integer(Int64)
    /// A floating-point number.
    case real(Double)
    /// A boolean.
    case boolean(Bool)
    /// `nil`.
    case null

    /// How the characters that need it are written inside a quoted string.
    private static let escapes: [Unicode.Scalar: String] = [
        "\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t",
    ]

    /// The constant in NSExpression format syntax: strings double-quoted with `\` escapes,
    /// booleans `TRUE` and `FALSE`, `nil`.
    public var format: String {
        switch self {
        case .string(let string):
            return "\"" + string.unicodeScalars.map { Self.escapes[$0] ?? String($0) }.joined() + "\""
        case .integer(let integer): return String(integer)
        case .real(let real): return String(real)
        case .boolean(let boolean): return boolean ? "TRUE" : "FALSE"
        case .null: return "nil"
        }
    }
}
