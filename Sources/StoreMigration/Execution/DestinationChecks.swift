// Checks the new file against the new model's rules before it is indexed and installed: the
// program's SQL checks (required values of a mapping pass) and, for attributes with validation
// rules that a mapping model wrote, each value through the checker saves use (read in pages, so
// memory stays bounded). And, when a unique index cannot be built, which constraint the rows
// break and its first duplicate, for the error.
// Invariant: a failed check stops the pass with a DataCheckFailure naming the entity, the
// property, the number of objects and the first one.
import GraphStore

/// Runs a pass's checks on its new file.
struct DestinationChecks {
    let program: PassProgram

    func run(on pass: PassConnection) throws {
        for check in program.destinationChecks {
            let (count, first) = try pass.check(check.sql)
            guard count > 0 else { continue }
            throw failure(check.rule, check.subject, count, "pk \(first ?? 0)")
        }
        for (entity, attribute) in program.validatedAttributes {
            try validate(attribute, of: entity, on: pass)
        }
    }

    /// Reads every value of `attribute` in `entity`'s rows and checks it against its rules.
    private func validate(_ attribute: ModelAttribute, of entity: ModelEntity, on pass: PassConnection) throws {
        let layout = program.destination
        let statement = try pass.connection.prepare(
            "SELECT \(layout.keyColumn), \(SQLiteIdentifier.quote(layout.column(of: attribute)))"
                + " FROM main.\(SQLiteIdentifier.quote(layout.table(of: entity)))"
                + " WHERE \(layout.entityColumn) = \(layout.number(of: entity)) ORDER BY \(layout.keyColumn)")
        var checker = AttributeRuleChecker()
        var count = 0
        var first: Int64?
        while try statement.step() {
            let value = statement.attributeValue(at: 1, type: attribute.type, encoding: layout.values)
            guard !(try checker.violations(of: value, attribute: attribute)).isEmpty else { continue }
            count += 1
            if first == nil { first = statement.int64(0) }
        }
        if count > 0 { throw failure(.validation, "\(entity.name).\(attribute.name)", count, "pk \(first ?? 0)") }
    }

    private func failure(_ rule: DataCheckFailure.Rule, _ subject: String, _ count: Int, _ first: String)
        -> MigrationError
    {
        MigrationError(
            .dataCheck(DataCheckFailure(rule: rule, subject: subject, count: count, first: first)), store: "")
    }
}

/// Finds the unique constraint the rows of a table break.
struct UniqueDuplicates {
    let program: PassProgram

    /// The failure for the first constraint of an entity kept in `table` that two rows share,
    /// with the number of duplicated values and the first of them; nil when none is found.
    func failure(in table: String, on pass: PassConnection) throws -> MigrationError? {
        let layout = program.destination
        let quote = SQLiteIdentifier.quote
        for entity in layout.model.entities where layout.table(of: entity) == table {
            for constraint in entity.declaration.uniqueConstraints {
                let columns = constraint.compactMap { layout.column(ofProperty: $0, in: entity) }.map(quote)
                guard columns.count == constraint.count else { continue }
                let present = columns.map { "\($0) IS NOT NULL" }.joined(separator: " AND ")
                let groups =
                    "SELECT \(columns.joined(separator: ", ")) FROM main.\(quote(table))"
                    + " WHERE \(layout.entityColumn) IN (\(layout.kindList(of: entity))) AND \(present)"
                    + " GROUP BY \(columns.joined(separator: ", ")) HAVING count(*) > 1"
                let count = Int(try pass.integer("SELECT count(*) FROM (\(groups))"))
                guard count > 0 else { continue }
                let first = try pass.connection.prepare(groups + " ORDER BY \(columns.joined(separator: ", ")) LIMIT 1")
                var values: [String] = []
                if try first.step() {
                    for index in 0..<Int32(columns.count) {
                        values.append(first.isNull(index) ? "nil" : first.string(index))
                    }
                }
                let failure = DataCheckFailure(
                    rule: .uniqueViolation, subject: "\(entity.name).\(constraint.joined(separator: ","))",
                    count: count,
                    first: "[" + values.joined(separator: ", ") + "]")
                return MigrationError(.dataCheck(failure), store: "")
            }
        }
        return nil
    }
}
