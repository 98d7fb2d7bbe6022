// The members of one to-many relationship as a correlated subquery: the FROM clause over the
// destination table (through the join table for a many-to-many), the condition tying members to
// their owner, and a resolver for key paths from the members.
// Invariants: the members' table has alias `sN` (a join table `sNj`, joins `sN_1`, …), unique in
// the whole query, so subqueries nest and refer to outer aliases freely; a NULL owner column
// (a nil to-one before the to-many) selects no members.

/// A to-many relationship's members, correlated with their owner, for EXISTS and scalar subqueries.
///
/// ```swift
/// var scope = SQLCollectionScope(layout: layout, hop: hop, alias: "s1")
/// let age = try scope.resolver.resolve("age")
/// scope.query(selecting: "COUNT(*)", where: [condition])
/// // (SELECT COUNT(*) FROM "Person" s1 WHERE s1."manager" = t0.pk AND …)
/// ```
struct SQLCollectionScope {
    /// Resolves key paths from the members (alias `sN`), collecting their joins.
    var resolver: SQLKeyPathResolver
    /// ` FROM …` naming the members' table (and join table).
    private let from: String
    /// The condition tying a member to its owner.
    private let correlation: String

    /// The members of `hop.relationship` owned by the row whose key is in `hop.ownerColumn`.
    init(layout: StoreLayout, hop: SQLKeyPathResolver.CollectionHop, alias: String) throws {
        let destination = layout.model.destination(of: hop.relationship)
        let table = SQLiteIdentifier.quote(layout.table(of: destination))
        switch layout.storage(of: hop.relationship) {
        case .inverseForeignKey(let column, _):
            from = " FROM \(table) \(alias)"
            correlation = "\(alias).\(SQLiteIdentifier.quote(column)) = \(hop.ownerColumn)"
        case .joinTable(let joinTable, let source, let target, _):
            let link = alias + "j"
            from =
                " FROM \(SQLiteIdentifier.quote(joinTable)) \(link) JOIN \(table) \(alias)"
                + " ON \(alias).\(layout.keyColumn) = \(link).\(SQLiteIdentifier.quote(target))"
            correlation = "\(link).\(SQLiteIdentifier.quote(source)) = \(hop.ownerColumn)"
        case .foreignKey, .transient:
            throw FetchError.invalidComparison("\(hop.relationship.name) is not a stored to-many relationship")
        }
        resolver = SQLKeyPathResolver(layout: layout, entity: destination, alias: alias, joinPrefix: alias + "_")
    }

    /// `(SELECT selection FROM … [joins] WHERE correlation [AND conditions])`.
    func query(selecting selection: String, where conditions: [SQLQuery] = []) -> SQLQuery {
        var query = SQLQuery("(SELECT \(selection)\(from)")
        for join in resolver.joins { query.append(" " + join.sql) }
        query.append(" WHERE " + correlation)
        for condition in conditions {
            query.append(" AND ")
            query.append(condition)
        }
        query.append(")")
        return query
    }
}
