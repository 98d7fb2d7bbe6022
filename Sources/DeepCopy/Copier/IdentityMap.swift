// The identity map of one root table: which target row each copied source row became. Either an
// offset (every source row becomes a new row, its key shifted past the target's keys) or a TEMP
// table `(source_key INTEGER PRIMARY KEY, target_key, fresh)` on the copy's connection (`fresh`
// marks the rows the copy inserts; the others matched an existing row, or share a new row's key).
// Invariant: a source key the copy did not copy maps to NULL, so links to it stay unset.
import GraphStore

/// Source key → target key for one root table.
enum IdentityMap {
    /// Every source row is copied as a new row whose key is the source key plus the offset.
    case offset(Int64)
    /// The mapping is the TEMP table of that name.
    case table(String)

    /// SQL giving the target key of the source key `expression`; NULL when that row was not copied.
    func target(of expression: String) -> String {
        switch self {
        case .offset(0): expression
        case .offset(let offset): "(\(expression) + \(offset))"
        case .table(let name):
            "(SELECT target_key FROM temp.\(SQLiteIdentifier.quote(name)) WHERE source_key = \(expression))"
        }
    }

    /// SQL selecting the target keys that copied source rows matched (rows the target held, or
    /// a new row several source rows share); nil when no source row matches.
    var matchedTargets: String? {
        switch self {
        case .offset: nil
        case .table(let name): "SELECT target_key FROM temp.\(SQLiteIdentifier.quote(name)) WHERE NOT fresh"
        }
    }

    /// Whether every source key maps to itself.
    var isIdentity: Bool {
        if case .offset(0) = self { return true }
        return false
    }

    /// Whether every source key maps to a target key.
    var isTotal: Bool {
        if case .offset = self { return true }
        return false
    }
}
