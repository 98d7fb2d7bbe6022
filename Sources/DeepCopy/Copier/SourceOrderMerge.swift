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
    /// SQL selecting `(grp, member, ordinal)`: the source's pairs mapped to target keys (NULL when an end is not copied).
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
        let quote = SQLiteIdentifier.quote
        let layouts = (source: plan.sourceLayout, target: plan.targetLayout)
        var merges: [SourceOrderMerge] = []
        for link in links.orderedMembers {
            guard let owners = maps[link.owners], let members = maps[link.members], let matched = owners.matchedTargets
            else { continue }
            let memberRoot = plan.source.entities[link.members]
            let sourceTable = layouts.source.table(of: memberRoot)
            let targetTable = plan.target.entity(named: memberRoot.name).map(layouts.target.table(of:)) ?? sourceTable
            let (owner, order) = ("s.\(quote(link.sourceColumn))", "s.\(quote(link.sourceOrder))")
            merges.append(
                SourceOrderMerge(
                    target: "main." + quote(targetTable), groupColumn: quote(link.targetColumn),
                    memberColumn: layouts.target.keyColumn, positionColumn: quote(link.targetOrder),
                    sourcePairs:
                        "SELECT \(owners.target(of: owner)) AS grp, \(members.target(of: "s.\(layouts.source.keyColumn)")) AS member, \(order) AS ordinal"
                        + " FROM \(SourceAttachment.schema).\(quote(sourceTable)) AS s WHERE \(owner) IS NOT NULL",
                    matchedGroups: matched,
                    scratchName: layouts.target.reservedName("order_\(sourceTable)_\(link.sourceColumn)"),
                    entity: link.entity, relationship: link.relationship))
        }
        for link in links.joinTables {
            guard let owners = maps[link.owners], let members = maps[link.members] else { continue }
            for order in link.orders {
                let (groups, others) = order.byOwner ? (owners, members) : (members, owners)
                guard let matched = groups.matchedTargets else { continue }
                let (sourceOwner, sourceMember) = (
                    "j.\(quote(link.sourceOwnerColumn))", "j.\(quote(link.sourceMemberColumn))"
                )
                let (sourceGroup, sourceOther) =
                    order.byOwner ? (sourceOwner, sourceMember) : (sourceMember, sourceOwner)
                let (targetOwner, targetMember) = (quote(link.targetOwnerColumn), quote(link.targetMemberColumn))
                merges.append(
                    SourceOrderMerge(
                        target: "main." + quote(link.targetTable),
                        groupColumn: order.byOwner ? targetOwner : targetMember,
                        memberColumn: order.byOwner ? targetMember : targetOwner,
                        positionColumn: quote(order.targetColumn),
                        sourcePairs:
                            "SELECT \(groups.target(of: sourceGroup)) AS grp, \(others.target(of: sourceOther)) AS member, j.\(quote(order.sourceColumn)) AS ordinal"
                            + " FROM \(SourceAttachment.schema).\(quote(link.sourceTable)) AS j",
                        matchedGroups: matched,
                        scratchName: layouts.target.reservedName("order_\(link.sourceTable)_\(order.sourceColumn)"),
                        entity: link.entity, relationship: link.relationship))
            }
        }
        return merges
    }

    /// Renumbers the matched groups, a page of groups per batch.
    func apply(with batches: CopyBatches) throws {
        let quote = SQLiteIdentifier.quote
        let (pairs, positions) = ("temp." + quote(scratchName), "temp." + quote(scratchName + "_positions"))
        try batches.scratch { connection in
            try connection.execute(
                "CREATE TEMP TABLE \(quote(scratchName))(grp INTEGER NOT NULL, member INTEGER NOT NULL, ordinal, PRIMARY KEY(grp, member)) WITHOUT ROWID"
            )
            try connection.execute(
                "CREATE TEMP TABLE \(quote(scratchName + "_positions"))(grp INTEGER NOT NULL, member INTEGER NOT NULL, position INTEGER NOT NULL, PRIMARY KEY(grp, member)) WITHOUT ROWID"
            )
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
