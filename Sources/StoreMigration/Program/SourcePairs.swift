// The links of a relationship as the source file stores them, as one SELECT of pairs: `o` the
// owner's key, `m` the member's key, `ord` the member's position among the owner's members
// (ordered to-manys), `iord` the owner's position among the member's (an ordered inverse).
// Whatever the storage — a to-one's column, the inverse's column with its position column, a
// join table with its position columns — the pairs read alike, and a key path through several
// relationships (`$source.owner.cars`) is their join.
// Invariant: only rows of the relationship's own entities are read (the entity column filters
// tables shared by a hierarchy).
import GraphStore

/// Reads a source relationship's links as pairs.
struct SourcePairs {
    /// The source file's layout.
    let layout: StoreLayout

    private var model: ObjectModel { layout.model }

    /// `SELECT o, m, ord, iord` over the links of `relationship` (a relationship of the source
    /// model), nil for a transient one.
    func sql(_ relationship: ModelRelationship) -> String? {
        let quote = SQLiteIdentifier.quote
        let (key, entity) = (layout.keyColumn, layout.entityColumn)
        guard let owner = model.entity(named: relationship.declaringEntity) else { return nil }
        let target = model.destination(of: relationship)
        let inverse = model.inverse(of: relationship).map(layout.storage(of:))
        switch layout.storage(of: relationship) {
        case .foreignKey(let column):
            var inverseOrder = "NULL"
            if case .inverseForeignKey(_, let order?) = inverse { inverseOrder = "x.\(quote(order))" }
            return "SELECT x.\(key) AS o, x.\(quote(column)) AS m, NULL AS ord, \(inverseOrder) AS iord"
                + " FROM src.\(quote(layout.table(of: owner))) AS x"
                + " WHERE x.\(quote(column)) IS NOT NULL AND x.\(entity) IN (\(layout.kindList(of: owner)))"
        case .inverseForeignKey(let column, let order):
            return "SELECT x.\(quote(column)) AS o, x.\(key) AS m, \(order.map { "x.\(quote($0))" } ?? "NULL") AS ord,"
                + " NULL AS iord FROM src.\(quote(layout.table(of: target))) AS x"
                + " WHERE x.\(quote(column)) IS NOT NULL AND x.\(entity) IN (\(layout.kindList(of: target)))"
        case .joinTable(let table, let ownerColumn, let memberColumn, let order):
            var inverseOrder = "NULL"
            if case .joinTable(_, _, _, let other?) = inverse { inverseOrder = "x.\(quote(other))" }
            return "SELECT x.\(quote(ownerColumn)) AS o, x.\(quote(memberColumn)) AS m,"
                + " \(order.map { "x.\(quote($0))" } ?? "NULL") AS ord, \(inverseOrder) AS iord"
                + " FROM src.\(quote(table)) AS x"
        case .transient:
            return nil
        }
    }

    /// The pairs of a key path: each owner with the members reached through `path` (every hop a
    /// stored relationship of the source model); positions are kept for a single hop only.
    func sql(path: [ModelRelationship]) -> String? {
        guard !path.isEmpty else { return nil }
        let hops = path.compactMap(sql)
        guard hops.count == path.count else { return nil }
        if hops.count == 1 { return hops[0] }
        var text = "SELECT h0.o AS o, h\(hops.count - 1).m AS m, NULL AS ord, NULL AS iord FROM (\(hops[0])) AS h0"
        for index in 1..<hops.count {
            text += " JOIN (\(hops[index])) AS h\(index) ON h\(index).o = h\(index - 1).m"
        }
        return text
    }

    /// The stored relationships of the source model (one per inverse pair) that no name in
    /// `read` (`Entity.relationship`, either side) reads, with the SQL of their links: the links
    /// a pass drops.
    func unread(by read: Set<String>) -> [(pair: RelationshipPair, sql: String)] {
        RelationshipPairs(model: layout.model).pairs.compactMap { pair in
            let names = [pair.subject] + (pair.inverseSubject.map { [$0] } ?? [])
            guard !names.contains(where: read.contains), let sql = sql(pair.primary) else { return nil }
            return (pair, sql)
        }
    }
}
