// Copies one join table's rows (many-to-many and inverse-less to-many relationships) with
// INSERT … SELECT through the identity maps of both ends, a page of source owners per batch.
// Pairs already in the target stay as they are. Ordered sides get positions after the owner's
// existing members (an owner the copy creates has none, and no pair yet), in source order: a
// fresh copy keeps the source's order exactly, a merge appends the missing members (under
// `update`, SourceOrderMerge then puts a matched object's list into the source's order).
// A verbatim copy (see RowCopier) moves the whole table with `INSERT … SELECT *`.
// Invariant: a pair with an end the copy left out is not written.
import GraphStore

/// Copies the rows of one join table.
struct JoinTableCopier {
    let link: JoinTableLink
    let maps: [Int: IdentityMap]
    /// Whether source rows are copied as they are.
    let verbatim: Bool

    /// Writes the pairs, batch by batch.
    func copy(with batches: CopyBatches) throws {
        guard let owners = maps[link.owners], let members = maps[link.members] else { return }
        let quote = SQLiteIdentifier.quote
        let source = SourceAttachment.schema + "." + quote(link.sourceTable)
        let target = "main." + quote(link.targetTable)
        if verbatim {
            try batches.commit { connection in try connection.run("INSERT INTO \(target) SELECT * FROM \(source)") }
            return
        }
        let (sourceOwner, sourceMember) = (quote(link.sourceOwnerColumn), quote(link.sourceMemberColumn))
        let (targetOwner, targetMember) = (quote(link.targetOwnerColumn), quote(link.targetMemberColumn))
        let positions = link.orders.enumerated().map { index, order in
            "j.\(quote(order.sourceColumn)) AS ordinal\(index)"
        }
        let pairs =
            "SELECT \(owners.target(of: "j.\(sourceOwner)")) AS owner, \(members.target(of: "j.\(sourceMember)")) AS member"
            + positions.map { ", " + $0 }.joined()
            + " FROM \(source) AS j WHERE j.\(sourceOwner) > ?1 AND j.\(sourceOwner) <= ?2"
        var conditions = owners.isTotal && members.isTotal ? [] : ["owner IS NOT NULL", "member IS NOT NULL"]
        var columns = [targetOwner, targetMember]
        var values = ["owner", "member"]
        if !link.orders.isEmpty {
            if !owners.isTotal && !members.isTotal {
                conditions.append(
                    "NOT EXISTS (SELECT 1 FROM \(target) AS x WHERE x.\(targetOwner) = p.owner AND x.\(targetMember) = p.member)"
                )
            }
            for (index, order) in link.orders.enumerated() {
                let column = quote(order.targetColumn)
                let (group, other) = order.byOwner ? ("owner", "member") : ("member", "owner")
                let groupColumn = order.byOwner ? targetOwner : targetMember
                // A group whose end is a new row has no positions in the target yet.
                let groupIsNew = (order.byOwner ? owners : members).isTotal
                let first =
                    groupIsNew
                    ? ""
                    : "(SELECT coalesce(max(x.\(column)) + 1, 0) FROM \(target) AS x WHERE x.\(groupColumn) = p.\(group)) + "
                columns.append(column)
                values.append(
                    first + "row_number() OVER (PARTITION BY p.\(group) ORDER BY p.ordinal\(index), p.\(other)) - 1")
            }
        }
        let sql =
            "INSERT OR IGNORE INTO \(target)(\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", "))"
            + " FROM (\(pairs)) AS p" + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "))
        if link.orders.contains(where: { !$0.byOwner }) {
            // Members' orders span every owner: one batch keeps each member's new positions in order.
            try batches.commit { connection in try connection.run(sql) }
        } else {
            try batches.paged(source, by: sourceOwner) { connection, lower, upper in
                try connection.run(sql, lower: lower, upper: upper)
            }
        }
    }
}
