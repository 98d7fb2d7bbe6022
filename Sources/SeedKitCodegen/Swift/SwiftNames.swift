// Names in generated Swift: identifiers escaped when they are keywords, accessor names built from
// property names, and the Swift type of each attribute type (qualified, so an entity called `Date`
// or `Data` does not shadow Foundation's).
import Foundation
import GraphStore

/// How model names become Swift names.
enum SwiftNames {
    /// Words Swift reserves in declarations and expressions; such names are written in backticks.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue",
        "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return",
        "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self",
        "super", "throws", "true", "try", "_",
    ]

    /// `name`, in backticks when it is a keyword.
    static func identifier(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// `text` as a Swift string literal (model names are identifiers, but quotes and backslashes
    /// are escaped all the same).
    static func stringLiteral(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// `name` with its first letter upper-cased, for accessor names: `sku` → `Sku`.
    static func capitalized(_ name: String) -> String {
        name.prefix(1).uppercased() + name.dropFirst()
    }

    /// Whether `name` can name a generated type: an ASCII identifier that is not a keyword and
    /// does not start with a digit.
    static func isTypeName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !keywords.contains(name), !("0"..."9").contains(first) else {
            return false
        }
        return name.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || scalar == "_"
        }
    }

    /// The Swift type of an attribute type's values; nil for transformable attributes, whose
    /// values are whatever their codec decodes.
    static func valueType(of type: AttributeType) -> String? {
        switch type {
        case .integer16: "Swift.Int16"
        case .integer32: "Swift.Int32"
        case .integer64: "Swift.Int64"
        case .decimal: "Foundation.Decimal"
        case .double: "Swift.Double"
        case .float: "Swift.Float"
        case .string: "Swift.String"
        case .boolean: "Swift.Bool"
        case .date: "Foundation.Date"
        case .binary: "Foundation.Data"
        case .uuid: "Foundation.UUID"
        case .uri: "Foundation.URL"
        case .transformable: nil
        }
    }
}
