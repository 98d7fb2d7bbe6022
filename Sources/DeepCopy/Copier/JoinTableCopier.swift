// Copies one join table's rows (many-to-many and inverse-less to-many relationships) with
// INSERT … SELECT through the identity maps of both ends, a page of source owners per batch.
// Pairs already in the target stay as they are. Ordered sides get positions after the owner's
// existing members, in source order: a fresh copy keeps the source's order exactly, a merge
// appends the missing members.
// A verbatim copy (see RowCopier) moves the whole table with `INSERT … SELECT *`.
// Invariant: a pair with an end the copy left out is not written.
import GraphStore

/// Copies the rows of one join table.
struct JoinTableCopier {
    let link: JoinTableLink
    let maps: [String: IdentityMap]
    /// Whether source rows are copied as they are.
    let verbatim: Bool

    /// Writes the pairs, batch by batch.
    func copy(with batches: CopyBatches) throws {
        guard let owners = maps[link.sourceRoot], let members = maps[link.destinationRoot] else { return }
        let source = "src." + SQLiteIdentifier.quote(link.table)
        let target = "main." + SQLiteIdentifier.quote(link.table)
        if verbatim {
            try batches.commit { connection in try connection.run("INSERT INTO \(target) SELECT * FROM \(source)") }
            return
        }
        let positions = link.orders.enumerated().map { index, order in
            "j.\(SQLiteIdentifier.quote(order.column)) AS position\(index)"
        }
        let pairs =
            "SELECT \(owners.target(of: "j.src")) AS src, \(members.target(of: "j.dst")) AS dst"
            + positions.map { ", " + $0 }.joined() + " FROM \(source) AS j WHERE j.src > ?1 AND j.src <= ?2"
        var conditions = owners.isTotal && members.isTotal ? [] : ["src IS NOT NULL", "dst IS NOT NULL"]
        var columns = ["src", "dst"]
        var values = ["src", "dst"]
        if !link.orders.isEmpty {
            conditions.append("NOT EXISTS (SELECT 1 FROM \(target) AS x WHERE x.src = p.src AND x.dst = p.dst)")
            for (index, order) in link.orders.enumerated() {
                let column = SQLiteIdentifier.quote(order.column)
                columns.append(column)
                values.append(
                    "(SELECT coalesce(max(x.\(column)) + 1, 0) FROM \(target) AS x WHERE x.\(order.group) = p.\(order.group))"
                        + " + row_number() OVER (PARTITION BY p.\(order.group) ORDER BY p.position\(index), p.\(order.member)) - 1"
                )
            }
        }
        let sql =
            "INSERT OR IGNORE INTO \(target)(\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", "))"
            + " FROM (\(pairs)) AS p" + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "))
        if link.orders.contains(where: { $0.group == "dst" }) {
            // Members' orders span every owner: one batch keeps each member's new positions in order.
            try batches.commit { connection in try connection.run(sql) }
        } else {
            try batches.paged(source, by: "src") { connection, lower, upper in
                try connection.run(sql, lower: lower, upper: upper)
            }
        }
    }
}
