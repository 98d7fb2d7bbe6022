// Set-based lookups of many keys: one statement with a fixed number of placeholders
// (`x IN (?, ?, …)`, or `(x, y) IN (VALUES (?, ?), …)` for keys of several values) run once per
// chunk of keys, instead of one query per key. Every chunk uses the same SQL text, so the
// statement is prepared once; a short last chunk repeats its last key to fill the list.
// Invariant: each key is bound exactly as the caller binds it; rows come back per chunk.

/// Chunks of keys for `IN (…)` lookups.
///
/// ```swift
/// let chunks = KeyChunks(size: 500)
/// let statement = try connection.cachedStatement("SELECT pk, ent FROM \"Item\" WHERE pk IN \(chunks.list)")
/// for chunk in chunks.split(keys) {
///     try chunks.query(statement, with: chunk, bind: { $0.bind($1, at: $2) }) { row in … }
/// }
/// ```
package struct KeyChunks {
    /// Keys per statement.
    package let size: Int
    /// Values per key.
    package let width: Int

    /// Chunks of `size` keys of `width` values each.
    package init(size: Int, width: Int = 1) {
        self.size = max(1, size)
        self.width = max(1, width)
    }

    /// The list one chunk binds: `(?, ?, …)`, or `(VALUES (?, ?), …)` for keys of several values.
    package var list: String {
        if width == 1 { return "(" + Array(repeating: "?", count: size).joined(separator: ", ") + ")" }
        let tuple = "(" + Array(repeating: "?", count: width).joined(separator: ", ") + ")"
        return "(VALUES " + Array(repeating: tuple, count: size).joined(separator: ", ") + ")"
    }

    /// What ``list`` is matched against: the column, or `(a, b)` for several (all already quoted).
    package static func target(_ columns: [String]) -> String {
        columns.count == 1 ? columns[0] : "(" + columns.joined(separator: ", ") + ")"
    }

    /// `keys` in chunks of at most ``size``.
    package func split<Keys: Collection>(_ keys: Keys) -> [Keys.SubSequence] {
        var chunks: [Keys.SubSequence] = []
        var start = keys.startIndex
        while start != keys.endIndex {
            let end = keys.index(start, offsetBy: size, limitedBy: keys.endIndex) ?? keys.endIndex
            chunks.append(keys[start..<end])
            start = end
        }
        return chunks
    }

    /// Runs `statement` (whose parameters are ``list``, from 1) for one chunk of keys: `bind`
    /// binds a key's values from the parameter it is given; `row` reads each result row. The
    /// statement is reset afterwards, also when `row` throws.
    package func query<Chunk: Collection>(
        _ statement: SQLiteStatement, with chunk: Chunk, bind: (SQLiteStatement, Chunk.Element, Int32) -> Void,
        row: (SQLiteStatement) throws -> Void
    ) throws {
        guard !chunk.isEmpty else { return }
        defer { statement.reset() }
        var index = chunk.startIndex
        for position in 0..<size {
            bind(statement, chunk[index], Int32(position * width + 1))
            let next = chunk.index(after: index)
            if next != chunk.endIndex { index = next }
        }
        while try statement.step() { try row(statement) }
    }
}
