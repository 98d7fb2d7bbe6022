// Positions of an ordered to-many kept on its members' table (an owner column and a position
// column there): the members whose owner the copy sets are noted before any row is written, and
// once every row is in place they get positions after their owner's other members, in source order.
// A fresh copy so keeps the source's order; a merge appends the members an owner lacked.
// Invariant: members the copy does not move keep their positions.
import GraphStore

/// Orders the members an ordered to-many gains through a copy.
struct OrderedMemberPositions {
    let link: OrderedMemberLink
    let maps: [String: IdentityMap]

    private var movedName: String { "seedkit_moved_\(link.table)_\(link.column)" }
    private var moved: String { "temp." + SQLiteIdentifier.quote(movedName) }
    private var table: String { SQLiteIdentifier.quote(link.table) }
    private var owner: String { SQLiteIdentifier.quote(link.column) }
    private var order: String { SQLiteIdentifier.quote(link.order) }

    /// Before rows are written: notes each copied member whose owner the copy sets or changes.
    func noteMovedMembers(on connection: SQLiteConnection) throws {
        guard let members = maps[link.table], let owners = maps[link.owner] else { return }
        try connection.execute(
            "CREATE TEMP TABLE \(SQLiteIdentifier.quote(movedName))(pk INTEGER PRIMARY KEY, owner INTEGER NOT NULL, position)"
        )
        try connection.run(
            """
            INSERT OR IGNORE INTO \(moved)(pk, owner, position)
            SELECT x.member, x.owner, x.position FROM (
            SELECT \(members.target(of: "s.pk")) AS member, \(owners.target(of: "s.\(owner)")) AS owner, s.\(order) AS position
            FROM src.\(table) AS s WHERE s.\(owner) IS NOT NULL) AS x
            LEFT JOIN main.\(table) AS t ON t.pk = x.member
            WHERE x.member IS NOT NULL AND x.owner IS NOT NULL AND t.\(owner) IS NOT x.owner
            """)
    }

    /// After rows are written: positions for the noted members, after their owner's other members.
    func assignPositions(with batches: CopyBatches) throws {
        guard maps[link.table] != nil, maps[link.owner] != nil else { return }
        try batches.commit { connection in
            try connection.run(
                """
                UPDATE main.\(table) AS t SET \(order) = x.base + x.rank FROM (
                SELECT r.pk AS pk, row_number() OVER (PARTITION BY r.owner ORDER BY r.position, r.pk) - 1 AS rank,
                (SELECT coalesce(max(y.\(order)) + 1, 0) FROM main.\(table) AS y
                WHERE y.\(owner) = r.owner AND y.pk NOT IN (SELECT pk FROM \(moved))) AS base
                FROM \(moved) AS r) AS x
                WHERE t.pk = x.pk
                """)
        }
    }
}
