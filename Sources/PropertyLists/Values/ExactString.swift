// ExactString: a string compared, hashed and ordered by its Unicode scalars (through its UTF-8
// bytes), as Core Foundation compares strings — unlike Swift's String, which treats canonically
// equivalent strings as equal. Used for dictionary keys and for uniquing strings when writing;
// UTF-8 byte order is code-point order.

/// A string with code-point identity and order.
struct ExactString: Hashable, Comparable {
    /// The string.
    let string: String

    init(_ string: String) { self.string = string }

    static func == (lhs: ExactString, rhs: ExactString) -> Bool {
        lhs.string.utf8.elementsEqual(rhs.string.utf8)
    }

    static func < (lhs: ExactString, rhs: ExactString) -> Bool {
        lhs.string.utf8.lexicographicallyPrecedes(rhs.string.utf8)
    }

    func hash(into hasher: inout Hasher) {
        var copy = string
        copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
