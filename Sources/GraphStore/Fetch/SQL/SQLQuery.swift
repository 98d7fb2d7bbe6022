// A piece of SQL with its parameter values, built up by `FetchQueryBuilder`.
// Invariant: `bindings.count` equals the number of `?` parameters in `sql`, in order; values are
// never written into `sql` itself.

/// SQL text with the values of its `?` parameters, in order.
///
/// ```swift
/// var query = SQLQuery("t0.\"price\" < ?", [.double(5)])
/// query.append(" AND t0.ent = 3")
/// ```
struct SQLQuery: Sendable, Hashable {
    /// The SQL text, with `?` for each parameter.
    var sql: String
    /// The parameter values (nil binds NULL); ObjectIDs are bound as their primary key.
    var bindings: [AttributeValue?]

    init(_ sql: String = "", _ bindings: [AttributeValue?] = []) {
        self.sql = sql
        self.bindings = bindings
    }

    /// One `?` parameter bound to `value`.
    static func parameter(_ value: AttributeValue?) -> SQLQuery {
        SQLQuery("?", [value])
    }

    /// Appends SQL text with no parameters.
    mutating func append(_ text: String) {
        sql += text
    }

    /// Appends another query's text and parameters.
    mutating func append(_ other: SQLQuery) {
        sql += other.sql
        bindings += other.bindings
    }

    /// `parts` joined by `separator`, parameters in order.
    static func joined(_ parts: [SQLQuery], separator: String) -> SQLQuery {
        var result = SQLQuery()
        for (index, part) in parts.enumerated() {
            if index > 0 { result.append(separator) }
            result.append(part)
        }
        return result
    }

    /// The text of `format` with each `%` replaced by the next of `parts` (text and parameters).
    static func template(_ format: String, _ parts: SQLQuery...) -> SQLQuery {
        var result = SQLQuery()
        var remaining = parts[...]
        for character in format {
            if character == "%", let part = remaining.popFirst() {
                result.append(part)
            } else {
                result.sql.append(character)
            }
        }
        return result
    }
}
