// Under `update`, an ordered to-many of a matched object takes the source's order: once every
// row and pair is in place (new members appended by OrderedMemberPositions and JoinTableCopier),
// each group of a matched object (its members, or for an ordered inverse of a many-to-many, its
// owners) is renumbered — the members the source lists first, in the source's order, then the
// members only the target has, in their old order. Set-based: the source's pairs, mapped to
// target keys, go into a TEMP table; then a page of groups per batch gets its new positions
// computed into a second TEMP table and written with one UPDATE … FROM.
// Invariant: only the position column of rows in a matched group changes; groups of new objects
// (already in source order) and members the source does not list keep their relative order.
import GraphStore

/// Puts the ordered to-manys of matched objects into the source's order.
struct SourceOrderMerge {
    /// The target table holding the positions: `main."T"`.
    let target: String
    /// Its column holding the group (the object whose list this is), quoted.
    let groupColumn: String
    /// Its column holding the group's members, quoted.
    let memberColumn: String
    /// Its position column, quoted.
    let positionColumn: String
    /// SQL selecting `(grp, member, ordinal)`: the source's pairs mapped to target keys (NULL
    /// where an end is not copied).
    let sourcePairs: String
    /// SQL selecting the target keys of the matched groups.
    let matchedGroups: String
    /// A name for the scratch tables (reserved by the target's layout).
    let scratchName: String
    /// The entity declaring the relationship, and its name (for progress).
    let entity: String
    let relationship: String

    /// The merges a copy under `update` runs: one per ordered side of the links it writes whose
    /// group's map matched rows.
    static func all(links: CopyLinks, plan: CopyPlan, maps: [Int: IdentityMap]) -> [SourceOrderMerge] {
        links.orderedMembers.compactMap { merge(of: $0, plan: plan, maps: maps) }
            + links.joinTables.flatMap { link in
                link.orders.compactMap { merge(of: link, order: $0, plan: plan, maps: maps) }
            }
    }

    /// The merge of an ordered to-many kept on its members' table: groups are owners, members the rows.
    private static func merge(of link: OrderedMemberLink, plan: CopyPlan, maps: [Int: IdentityMap]) -> SourceOrderMerge?
    {
        guard let owners = maps[link.owners], let members = maps[link.members], let matched = owners.matchedTargets
        else { return nil }
        let (source, target) = (plan.sourceLayout, plan.targetLayout)
        let memberRoot = plan.source.entities[link.members]
        let sourceTable = source.table(of: memberRoot)
        let targetTable = plan.target.entity(named: memberRoot.name).map(target.table(of:)) ?? sourceTable
        let owner = "s.\(quote(link.sourceColumn))"
        return SourceOrderMerge(
            target: "main." + quote(targetTable), groupColumn: quote(link.targetColumn),
            memberColumn: target.keyColumn, positionColumn: quote(link.targetOrder),
            sourcePairs: pairs(
                group: owners.target(of: owner), member: members.target(of: "s.\(source.keyColumn)"),
                ordinal: "s.\(quote(link.sourceOrder))", from: sourceTable, alias: "s") + " WHERE \(owner) IS NOT NULL",
            matchedGroups: matched, scratchName: target.reservedName("order_\(sourceTable)_\(link.sourceColumn)"),
            entity: link.entity, relationship: link.relationship)
    }

    /// The merge of one ordered side of a join table: groups are its owners (the followed
    /// relationship's order) or its members (the inverse's), the other column the members.
    private static func merge(of link: JoinTableLink, order: JoinOrder, plan: CopyPlan, maps: [Int: IdentityMap])
        -> SourceOrderMerge?
    {
        guard let owners = maps[link.owners], let members = maps[link.members] else { return nil }
        let (groups, others) = order.byOwner ? (owners, members) : (members, owners)
        guard let matched = groups.matchedTargets else { return nil }
        let sourceColumns = ("j.\(quote(link.sourceOwnerColumn))", "j.\(quote(link.sourceMemberColumn))")
        let targetColumns = (quote(link.targetOwnerColumn), quote(link.targetMemberColumn))
        let (sourceGroup, sourceOther) = order.byOwner ? sourceColumns : (sourceColumns.1, sourceColumns.0)
        let (targetGroup, targetOther) = order.byOwner ? targetColumns : (targetColumns.1, targetColumns.0)
        return SourceOrderMerge(
            target: "main." + quote(link.targetTable), groupColumn: targetGroup, memberColumn: targetOther,
            positionColumn: quote(order.targetColumn),
            sourcePairs: pairs(
                group: groups.target(of: sourceGroup), member: others.target(of: sourceOther),
                ordinal: "j.\(quote(order.sourceColumn))", from: link.sourceTable, alias: "j"),
            matchedGroups: matched,
            scratchName: plan.targetLayout.reservedName("order_\(link.sourceTable)_\(order.sourceColumn)"),
            entity: link.entity, relationship: link.relationship)
    }

    /// `SELECT group AS grp, member AS member, ordinal AS ordinal FROM source."table" AS alias`.
    private static func pairs(group: String, member: String, ordinal: String, from table: String, alias: String)
        -> String
    {
        "SELECT \(group) AS grp, \(member) AS member, \(ordinal) AS ordinal"
            + " FROM \(SourceAttachment.schema).\(quote(table)) AS \(alias)"
    }

    private static func quote(_ identifier: String) -> String {
        SQLiteIdentifier.quote(identifier)
    }

    /// Renumbers the matched groups, a page of groups per batch.
    func apply(with batches: CopyBatches) throws {
        let (pairs, positions) = ("temp." + Self.quote(scratchName), "temp." + Self.quote(scratchName + "_positions"))
        try batches.scratch { connection in
            try connection.execute(
                "CREATE TABLE \(pairs)(grp INTEGER NOT NULL, member INTEGER NOT NULL, ordinal, PRIMARY KEY(grp, member))"
                    + " WITHOUT ROWID")
            try connection.execute(
                "CREATE TABLE \(positions)(grp INTEGER NOT NULL, member INTEGER NOT NULL, position INTEGER NOT NULL,"
                    + " PRIMARY KEY(grp, member)) WITHOUT ROWID")
            try connection.run(
                """
                INSERT INTO \(pairs)(grp, member, ordinal)
                SELECT p.grp, p.member, min(p.ordinal) FROM (\(sourcePairs)) AS p
                WHERE p.member IS NOT NULL AND p.grp IN (\(matchedGroups)) GROUP BY p.grp, p.member
                """)
        }
        batches.tracker.begin(.links, entity: entity, relationship: relationship, rows: 0)
        try batches.paged(pairs, by: "grp") { connection, lower, upper in
            try connection.run("DELETE FROM \(positions)")
            try connection.run(
                """
                INSERT INTO \(positions)(grp, member, position)
                SELECT t.\(groupColumn), t.\(memberColumn), row_number() OVER (PARTITION BY t.\(groupColumn)
                ORDER BY s.grp IS NULL, s.ordinal, t.\(positionColumn), t.\(memberColumn)) - 1
                FROM \(target) AS t LEFT JOIN \(pairs) AS s ON s.grp = t.\(groupColumn) AND s.member = t.\(memberColumn)
                WHERE t.\(groupColumn) IN (SELECT grp FROM \(pairs) WHERE grp > ?1 AND grp <= ?2)
                """, lower: lower, upper: upper)
            try connection.run(
                """
                UPDATE \(target) AS t SET \(positionColumn) = p.position FROM \(positions) AS p
                WHERE t.\(groupColumn) = p.grp AND t.\(memberColumn) = p.member AND t.\(positionColumn) IS NOT p.position
                """)
        }
    }
}
