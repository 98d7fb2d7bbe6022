// Node: one entry of a record's flat node table.
//
// A record is a tree stored in pre-order in one array: a node's descendants follow it
// directly, and `end` is the index one past its last descendant, so a node's children are
// found by starting at `index + 1` and jumping from child to child through their `end`.
// Names and scalar values are ranges into the record's single byte buffer; a node never owns
// memory of its own. Invariants: `index < end <= nodes.count`; every range lies inside the
// byte buffer; an XML namespace URI occupies the `namespaceCount` bytes just before the name.

/// What a node in a record's node table holds.
enum NodeKind: UInt8, Sendable {
    /// A CSV row: the root of a CSV record; its children are the fields, in column order.
    case row
    /// A CSV field (text).
    case field
    /// A JSON object; its children are its members, each named by its key.
    case object
    /// A JSON array; its children are its elements.
    case array
    /// A JSON string.
    case string
    /// A JSON number, kept as its exact source text.
    case number
    /// A JSON `true` or `false`, kept as its source text.
    case bool
    /// A JSON `null`.
    case null
    /// An XML element: its value is its own text; its children are its attributes, then elements.
    case element
    /// An XML attribute.
    case attribute
}

/// A record tree node: kind, name and value ranges, subtree end and source position.
struct Node: Sendable {
    /// The node holds a CSV field that was quoted in the source.
    static let quotedFlag: UInt8 = 1
    /// The XML element has attributes or child elements (it reads as a record, not text).
    static let structuredFlag: UInt8 = 2
    /// The XML element has an attribute with a namespace, so two of its attributes may share
    /// a local name (`id` and `x:id`); without one, its attributes' local names are unique.
    static let namespacedAttributeFlag: UInt8 = 4

    var kind: NodeKind
    var flags: UInt8 = 0
    /// Length of the namespace URI stored just before the name (XML only).
    var namespaceCount: UInt16 = 0
    var nameStart: Int32 = 0
    var nameCount: Int32 = -1
    var valueStart: Int32 = 0
    var valueCount: Int32 = 0
    /// Index one past the last descendant.
    var end: Int32 = 0
    var line: Int32 = 0
    var column: Int32 = 0
    var offset: Int = 0

    /// Whether the node carries a name (a JSON key, an XML element or attribute name).
    var hasName: Bool { nameCount >= 0 }
}
