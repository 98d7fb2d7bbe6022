// ValueKind: what a value looks like to a consumer, whatever the source format.

/// The shape of a value.
///
/// CSV fields and XML attributes are `.text`; an XML element is `.text` when it has neither
/// attributes nor child elements, `.record` otherwise; JSON values map one to one; a path
/// that matches several XML elements, or a JSON array, is a `.list`.
public enum ValueKind: String, Sendable, Hashable {
    /// A string: CSV field, JSON string, XML attribute or text-only element.
    case text
    /// A JSON number, as its exact source text.
    case number
    /// A JSON `true` or `false`.
    case bool
    /// A JSON `null`.
    case null
    /// A JSON array, or several matched values.
    case list
    /// A JSON object, an XML element with attributes or children, or a CSV row.
    case record
}

extension Node {
    /// The consumer-facing kind of this node.
    var valueKind: ValueKind {
        switch kind {
        case .field, .string, .attribute: return .text
        case .number: return .number
        case .bool: return .bool
        case .null: return .null
        case .array: return .list
        case .row, .object: return .record
        case .element: return flags & Node.structuredFlag != 0 ? .record : .text
        }
    }
}
