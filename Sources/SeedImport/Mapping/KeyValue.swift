// The value of a unique key or a reference's match: one attribute value, or several for
// composite keys. Hashable, so it indexes lookups.
import GraphStore

/// A key's value.
enum KeyValue: Hashable, CustomStringConvertible {
    /// A single-attribute key.
    case single(AttributeValue)
    /// A composite key, in key order.
    case composite([AttributeValue])

    /// A key from its parts.
    init(_ parts: [AttributeValue]) {
        self = parts.count == 1 ? .single(parts[0]) : .composite(parts)
    }

    /// The parts, in key order.
    var parts: [AttributeValue] {
        switch self {
        case .single(let value): [value]
        case .composite(let values): values
        }
    }

    /// The key as text: `A-1`, or `A-1, 2` for composite keys.
    var description: String {
        parts.map(\.description).joined(separator: ", ")
    }
}
