// A property's value as an export writes it: text (null when absent), or a list of keys.

/// One exported property value.
enum ExportValue {
    /// A scalar as text, or nil for null.
    case text(String?)
    /// A number or Boolean: bare in JSON, like text elsewhere.
    case literal(String)
    /// The keys of a to-many relationship's destinations, in order.
    case list([String])
}

/// One exported object: its properties in column order.
struct ExportRow {
    let values: [ExportValue]
}
