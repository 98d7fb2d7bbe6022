// Positions of an ordered to-many kept on its members' table (an owner column and a position
// column there): the members whose owner the copy sets are noted before any row is written, and
// once every row is in place they get positions after their owner's other members, in source order.
// A fresh copy so keeps the source's order; a merge appends the members an owner lacked (under
// `update`, SourceOrderMerge then puts a matched owner's list into the source's order).
// Invariant: members the copy does not move keep their positions.
import GraphStore

/// Orders the members an ordered to-many gains through a copy.
struct OrderedMemberPositions {
    let link: OrderedMemberLink
    let plan: CopyPlan
    let maps: [Int: IdentityMap]

    private var movedName: String {
        plan.targetLayout.reservedName("moved_\(sourceTableName)_\(link.sourceColumn)")
    }
    private var moved: String { "temp." + SQLiteIdentifier.quote(movedName) }
    private var sourceTableName: String { plan.sourceLayout.table(of: plan.source.entities[link.members]) }
    private var targetTable: String {
        let members = plan.target.entity(named: plan.source.entities[link.members].name)
        return "main." + SQLiteIdentifier.quote(members.map(plan.targetLayout.table(of:)) ?? sourceTableName)
    }

    /// Before rows are written: notes each copied member whose owner the copy sets or changes.
    func noteMovedMembers(on connection: SQLiteConnection) throws {
        guard let members = maps[link.members], let owners = maps[link.owners] else { return }
        let quote = SQLiteIdentifier.quote
        let (sourceKey, targetKey) = (plan.sourceLayout.keyColumn, plan.targetLayout.keyColumn)
        let (owner, order, targetOwner) = (quote(link.sourceColumn), quote(link.sourceOrder), quote(link.targetColumn))
        try connection.execute(
            "CREATE TEMP TABLE \(quote(movedName))(member INTEGER PRIMARY KEY, owner INTEGER NOT NULL, ordinal)")
        try connection.run(
            """
            INSERT OR IGNORE INTO \(moved)(member, owner, ordinal)
            SELECT x.member, x.owner, x.ordinal FROM (
            SELECT \(members.target(of: "s.\(sourceKey)")) AS member, \(owners.target(of: "s.\(owner)")) AS owner, s.\(order) AS ordinal
            FROM \(SourceAttachment.schema).\(quote(sourceTableName)) AS s WHERE s.\(owner) IS NOT NULL) AS x
            LEFT JOIN \(targetTable) AS t ON t.\(targetKey) = x.member
            WHERE x.member IS NOT NULL AND x.owner IS NOT NULL AND t.\(targetOwner) IS NOT x.owner
            """)
    }

    /// After rows are written: positions for the noted members, after their owner's other members.
    func assignPositions(with batches: CopyBatches) throws {
        guard maps[link.members] != nil, let owners = maps[link.owners] else { return }
        let key = plan.targetLayout.keyColumn
        let (owner, order) = (SQLiteIdentifier.quote(link.targetColumn), SQLiteIdentifier.quote(link.targetOrder))
        // An owner the copy creates has no members but those it moved.
        let base =
            owners.isTotal
            ? "0"
            : """
            (SELECT coalesce(max(y.\(order)) + 1, 0) FROM \(targetTable) AS y
            WHERE y.\(owner) = r.owner AND y.\(key) NOT IN (SELECT member FROM \(moved)))
            """
        try batches.commit { connection in
            try connection.run(
                """
                UPDATE \(targetTable) AS t SET \(order) = x.base + x.rank FROM (
                SELECT r.member AS member, row_number() OVER (PARTITION BY r.owner ORDER BY r.ordinal, r.member) - 1 AS rank,
                \(base) AS base
                FROM \(moved) AS r) AS x
                WHERE t.\(key) = x.member
                """)
        }
    }
}
