// SQLiteIdentifier: quoting of SQL identifiers (table, column, index and savepoint names) for
// SQL built from model names.
// Invariant: `quote(_:)` returns a string that SQLite reads back as exactly the given name,
// whatever characters it holds (embedded double quotes are doubled).

/// Builds SQL identifiers that are safe for any name.
///
/// ```swift
/// let sql = "SELECT pk FROM \(SQLiteIdentifier.quote("Item")) WHERE \(SQLiteIdentifier.quote("sku")) = ?"
/// // SELECT pk FROM "Item" WHERE "sku" = ?
/// ```
package enum SQLiteIdentifier {
    /// `name` in double quotes, with each embedded `"` doubled: `Item` → `"Item"`, `a"b` → `"a""b"`.
    ///
    /// ```swift
    /// SQLiteIdentifier.quote("Order")   // "\"Order\"" — usable although ORDER is a keyword
    /// ```
    package static func quote(_ name: String) -> String {
        var quoted = "\""
        quoted.reserveCapacity(name.utf8.count + 2)
        for character in name.unicodeScalars {
            if character == "\"" { quoted.unicodeScalars.append("\"") }
            quoted.unicodeScalars.append(character)
        }
        quoted.unicodeScalars.append("\"")
        return quoted
    }
}
