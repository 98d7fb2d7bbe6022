// Writes the links of one relationship pair that is not copied as stored: its contributions
// (links read from the source through the identity of both ends, and links policies made) are
// gathered in a TEMP table `(owner, member, ord, iord)` keyed by the pair, so links given from
// both sides count once; a to-one side holding several links stops the pass (or, for a to-many
// that became to-one and `truncateToMany`, keeps the first by position, then key); then the links
// go where the new layout keeps them: to-one columns (with their companion entity columns),
// position columns of ordered to-manys (positions from the source order, else ascending key),
// or a join table with its position columns.
// Invariants: the link table is dropped when the pair is written; positions start at 0 and
// follow (source position, then member key) within each owner.
import GraphStore

/// Writes one link plan.
struct LinkWriter {
    let plan: LinkPlan
    let program: PassProgram
    /// The TEMP table's name (unquoted).
    let tableName: String
    /// The TEMP table of links policies made, when the pass has policies.
    let policyLinks: String?

    private var destination: StoreLayout { program.destination }
    private var links: String { "temp." + SQLiteIdentifier.quote(tableName) }

    /// Gathers, checks and writes the links; returns the links dropped by truncation (with their subject).
    func write(on pass: PassConnection) throws -> [String] {
        var dropped: [String] = []
        try pass.batch { connection in
            try connection.execute(
                "CREATE TEMP TABLE \(SQLiteIdentifier.quote(tableName))(owner INTEGER NOT NULL, member INTEGER NOT NULL,"
                    + " ord, iord, PRIMARY KEY(owner, member)) WITHOUT ROWID")
            for contribution in plan.contributions {
                try connection.execute(contribution.replacingOccurrences(of: "temp.?L", with: links))
            }
            if let policyLinks {
                try addPolicyLinks(from: policyLinks, on: connection)
            }
            if let rule = plan.ownerSide, let line = try overflow(rule, grouping: "owner", ordering: "ord", on: pass) {
                dropped.append(line)
            }
            if let rule = plan.memberSide, let line = try overflow(rule, grouping: "member", ordering: "iord", on: pass)
            {
                dropped.append(line)
            }
            for check in plan.countChecks { try checkCount(check, on: pass) }
            try writeStorage(on: connection)
            try connection.execute("DROP TABLE \(links)")
        }
        return dropped
    }

    private func addPolicyLinks(from table: String, on connection: SQLiteConnection) throws {
        let quoted = "temp." + SQLiteIdentifier.quote(table)
        let primary = try connection.prepare(
            "INSERT OR IGNORE INTO \(links)(owner, member) SELECT owner, member FROM \(quoted) WHERE relationship = ?")
        primary.bind(text: plan.policyNames.primary, at: 1)
        try primary.execute()
        if let inverse = plan.policyNames.inverse {
            let reversed = try connection.prepare(
                "INSERT OR IGNORE INTO \(links)(owner, member) SELECT member, owner FROM \(quoted) WHERE relationship = ?"
            )
            reversed.bind(text: inverse, at: 1)
            try reversed.execute()
        }
    }

    /// Checks that each `grouping` (owner or member) has at most one link; truncates when the
    /// rule allows it and returns the line for the links dropped.
    private func overflow(_ rule: SideRule, grouping: String, ordering: String, on pass: PassConnection) throws
        -> String?
    {
        let crowded = "SELECT \(grouping) AS g FROM \(links) GROUP BY \(grouping) HAVING count(*) > 1"
        let (count, first) = try pass.check("SELECT count(*), min(g) FROM (\(crowded))")
        guard count > 0 else { return nil }
        guard rule.truncatable else {
            throw MigrationError(
                .dataCheck(
                    DataCheckFailure(rule: rule.rule, subject: rule.subject, count: count, first: "pk \(first ?? 0)")),
                store: "")
        }
        let other = grouping == "owner" ? "member" : "owner"
        let removed = try pass.run(
            """
            DELETE FROM \(links) WHERE (owner, member) IN (SELECT owner, member FROM (SELECT owner, member,
            row_number() OVER (PARTITION BY \(grouping) ORDER BY \(ordering) IS NULL, \(ordering), \(other)) AS n
            FROM \(links)) WHERE n > 1)
            """)
        return "\(rule.subject): \(removed) links (to-many → to-one)"
    }

    /// Checks that every owner of a to-many holds a number of members in its range.
    private func checkCount(_ check: CountCheck, on pass: PassConnection) throws {
        let (key, entity) = (destination.keyColumn, destination.entityColumn)
        let group = check.alongPrimary ? "owner" : "member"
        let members = "(SELECT count(*) FROM \(links) AS l WHERE l.\(group) = t.\(key))"
        var outside = "\(members) < \(check.minimum)"
        if check.maximum > 0 { outside += " OR \(members) > \(check.maximum)" }
        let (count, first) = try pass.check(
            "SELECT count(*), min(t.\(key)) FROM main.\(SQLiteIdentifier.quote(check.table)) AS t"
                + " WHERE t.\(entity) IN (\(StoreLayout.list(check.numbers))) AND (\(outside))")
        guard count > 0 else { return }
        throw MigrationError(
            .dataCheck(
                DataCheckFailure(
                    rule: .countOutOfRange, subject: check.subject, count: count, first: "pk \(first ?? 0)")),
            store: "")
    }

    /// Writes the gathered links into the pair's storage in the new file.
    private func writeStorage(on connection: SQLiteConnection) throws {
        let quote = SQLiteIdentifier.quote
        let model = destination.model
        let key = destination.keyColumn
        var wroteJoinTable = false
        for (relationship, alongPrimary) in [(plan.primary, true)] + (plan.inverse.map { [($0, false)] } ?? []) {
            let (owner, member) = alongPrimary ? ("owner", "member") : ("member", "owner")
            let (ownOrder, otherOrder) = alongPrimary ? ("ord", "iord") : ("iord", "ord")
            guard let declaring = model.entity(named: relationship.declaringEntity) else { continue }
            switch destination.storage(of: relationship) {
            case .foreignKey(let column):
                let table = "main." + quote(destination.table(of: declaring))
                var assignments = ["\(quote(column)) = x.v"]
                if let companion = destination.companionColumn(of: relationship) {
                    let target = model.destination(of: relationship)
                    assignments.append(
                        "\(quote(companion)) = (SELECT d.\(destination.entityColumn) FROM main.\(quote(destination.table(of: target))) AS d WHERE d.\(key) = x.v)"
                    )
                }
                try connection.execute(
                    "UPDATE \(table) AS t SET \(assignments.joined(separator: ", "))"
                        + " FROM (SELECT \(owner) AS k, \(member) AS v FROM \(links)) AS x WHERE t.\(key) = x.k")
            case .inverseForeignKey(_, let order?):
                let table = "main." + quote(destination.table(of: model.destination(of: relationship)))
                try connection.execute(
                    "UPDATE \(table) AS t SET \(quote(order)) = x.p FROM (SELECT \(member) AS k,"
                        + " row_number() OVER (PARTITION BY \(owner) ORDER BY \(ownOrder) IS NULL, \(ownOrder), \(member)) - 1 AS p"
                        + " FROM \(links)) AS x WHERE t.\(key) = x.k")
            case .joinTable(let table, let ownerColumn, let memberColumn, let order) where !wroteJoinTable:
                wroteJoinTable = true
                var columns = [quote(ownerColumn), quote(memberColumn)]
                var values = [owner, member]
                if let order {
                    columns.append(quote(order))
                    values.append(
                        "row_number() OVER (PARTITION BY \(owner) ORDER BY \(ownOrder) IS NULL, \(ownOrder), \(member)) - 1"
                    )
                }
                if let inverse = alongPrimary ? plan.inverse : plan.primary,
                    case .joinTable(_, _, _, let inverseOrder?) = destination.storage(of: inverse)
                {
                    columns.append(quote(inverseOrder))
                    values.append(
                        "row_number() OVER (PARTITION BY \(member) ORDER BY \(otherOrder) IS NULL, \(otherOrder), \(owner)) - 1"
                    )
                }
                try connection.execute(
                    "INSERT INTO main.\(quote(table))(\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", "))"
                        + " FROM \(links) ORDER BY \(owner), \(member)")
            default:
                continue
            }
        }
    }
}
