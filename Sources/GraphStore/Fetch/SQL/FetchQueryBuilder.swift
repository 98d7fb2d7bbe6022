// Turns a fetch request into SQL over the store layout of docs/StoreFormat.md: the fetched entity's root
// table as alias t0, LEFT JOINs for to-one key paths, an entity filter, the predicate, the
// sort descriptors and the limit.
// Invariants: the request is fully checked against the model in `init` (so a builder that exists
// produces valid SQL); values are bound parameters; rows come out in a total order (sort
// descriptors, then `t0.pk`), so limits and offsets page consistently; entity store IDs (model
// constants, never user input) are written as literals so SQLite can use the partial unique
// indexes on sub-entities, whose WHERE clauses name the same literals.

/// Builds the SQL of a fetch.
///
/// ```swift
/// let builder = try FetchQueryBuilder(layout: store.layout, request: request)
/// let query = try builder.selectQuery(columns: ["t0.pk", "t0.ent"])
/// // SELECT t0.pk, t0.ent FROM "Item" t0 LEFT JOIN "Unit" t1 ON t1.pk = t0."unit"
/// //   WHERE t1."name" = ? ORDER BY t0."name", t0.pk LIMIT ? OFFSET ?
/// let count = try builder.countQuery()
/// ```
struct FetchQueryBuilder {
    /// The alias of the fetched entity's root table in every query.
    static let rootAlias = SQLKeyPathResolver.rootAlias

    let layout: StoreLayout
    let request: FetchRequest
    /// The fetched entity.
    let entity: ModelEntity
    /// `WHERE` conditions: the entity filter and the predicate, either may be absent.
    private let conditions: [SQLQuery]
    /// `ORDER BY` terms, ending with `t0.pk`.
    private let orderTerms: [String]
    /// The joins the predicate needs, then those only the sort descriptors need.
    private let joins: [String]
    /// How many of `joins` the predicate needs (a count needs no others).
    private let predicateJoinCount: Int
    /// The columns, grouping and HAVING of a dictionary fetch; nil without `propertiesToFetch`.
    let dictionaryPlan: DictionaryPlan?

    /// Checks `request` against the layout's model and prepares its SQL.
    ///
    /// - Throws: ``FetchError`` for an unknown entity or key path, a key path through a to-many
    ///   relationship, a type mismatch, an unsubstituted `$VARIABLE`, or a negative limit or offset.
    init(layout: StoreLayout, request: FetchRequest) throws {
        guard let entity = layout.model.entity(named: request.entityName) else {
            throw FetchError.unknownEntity(request.entityName)
        }
        guard request.fetchOffset >= 0 else { throw FetchError.invalidRequest("negative fetch offset") }
        if let limit = request.fetchLimit, limit < 0 { throw FetchError.invalidRequest("negative fetch limit") }
        self.layout = layout
        self.request = request
        self.entity = entity

        var translator = PredicateSQLTranslator(resolver: SQLKeyPathResolver(layout: layout, entity: entity))
        var conditions: [SQLQuery] = []
        if let filter = Self.entityFilter(
            layout: layout, entity: entity, includesSubentities: request.includesSubentities)
        {
            conditions.append(SQLQuery(filter))
        }
        if let predicate = request.predicate {
            conditions.append(try translator.condition(predicate).query)
        }
        self.conditions = conditions
        self.predicateJoinCount = translator.resolver.joins.count
        self.dictionaryPlan =
            request.propertiesToFetch.isEmpty ? nil : try DictionaryPlan(request: request, translator: &translator)
        self.orderTerms =
            try request.sortDescriptors.map { try Self.orderTerm($0, resolver: &translator.resolver) }
            + ["\(Self.rootAlias).\(layout.keyColumn)"]
        self.joins = translator.resolver.joins.map(\.sql)
    }

    /// `t0.ent IN (…)` when the root table also holds entities the request excludes; nil otherwise.
    private static func entityFilter(layout: StoreLayout, entity: ModelEntity, includesSubentities: Bool) -> String? {
        let kinds = includesSubentities ? layout.kindNumbers(of: entity) : [layout.number(of: entity)]
        guard Set(kinds) != Set(layout.kindNumbers(of: layout.model.root(of: entity))) else { return nil }
        let column = "\(rootAlias).\(layout.entityColumn)"
        if kinds.count == 1 { return "\(column) = \(kinds[0])" }
        return "\(column) IN (" + StoreLayout.list(kinds) + ")"
    }

    /// One `ORDER BY` term: the attribute column (a Decimal cast to REAL, text folded when the
    /// descriptor has options), `DESC` when descending.
    private static func orderTerm(_ descriptor: FetchSortDescriptor, resolver: inout SQLKeyPathResolver) throws
        -> String
    {
        guard case .attribute(let attribute, let column) = try resolver.resolve(descriptor.keyPath) else {
            throw FetchError.unsupportedKeyPath(
                entity: resolver.entity.name, keyPath: descriptor.keyPath, reason: "a sort key must be an attribute")
        }
        var term = column
        if attribute.type == .decimal {
            term = "CAST(\(column) AS REAL)"
        } else if !descriptor.options.isEmpty && ValueFamily(attribute.type).isText {
            term = "\(SQLFunctions.fold)(\(column), \(descriptor.options.rawValue))"
        }
        return descriptor.ascending ? term : term + " DESC"
    }

    /// `SELECT columns FROM … [WHERE …] ORDER BY … [LIMIT ? OFFSET ?]`.
    ///
    /// - Parameters:
    ///   - columns: SQL expressions over alias `t0` (`t0.pk`, `t0.ent`, `t0."name"`).
    ///   - applyingLimit: false leaves out the request's limit and offset (for a caller that
    ///     merges unsaved changes before limiting).
    /// - Throws: ``FetchError/invalidRequest(_:)`` when `columns` is empty.
    func selectQuery(columns: [String], applyingLimit: Bool = true) throws -> SQLQuery {
        guard !columns.isEmpty else { throw FetchError.invalidRequest("no columns to select") }
        var query = SQLQuery("SELECT " + columns.joined(separator: ", "))
        query.append(fromAndWhere(joinCount: joins.count))
        query.append(" ORDER BY " + orderTerms.joined(separator: ", "))
        if applyingLimit { query.append(limitClause) }
        return query
    }

    /// `SELECT [DISTINCT] columns FROM … [WHERE …] [GROUP BY … [HAVING …]] [ORDER BY …] [LIMIT ? OFFSET ?]`
    /// for a dictionary fetch; rows come in primary-key order when neither grouped nor distinct.
    ///
    /// - Throws: ``FetchError/invalidRequest(_:)`` when the request has no properties to fetch.
    func dictionaryQuery() throws -> SQLQuery {
        guard let plan = dictionaryPlan else { throw FetchError.invalidRequest("no properties to fetch") }
        let distinct = request.returnsDistinctResults ? "DISTINCT " : ""
        var query = SQLQuery("SELECT \(distinct)" + plan.columns.map(\.sql).joined(separator: ", "))
        query.append(fromAndWhere(joinCount: joins.count))
        if !plan.groupTerms.isEmpty { query.append(" GROUP BY " + plan.groupTerms.joined(separator: ", ")) }
        if let having = plan.having {
            query.append(" HAVING ")
            query.append(having)
        }
        let rowsAreObjects = plan.groupTerms.isEmpty && !request.returnsDistinctResults
        let order = rowsAreObjects ? orderTerms : Array(orderTerms.dropLast())
        if !order.isEmpty { query.append(" ORDER BY " + order.joined(separator: ", ")) }
        query.append(limitClause)
        return query
    }

    /// `SELECT COUNT(*) …`: the number of matching objects, at most the limit after the offset
    /// unless `applyingLimit` is false.
    func countQuery(applyingLimit: Bool = true) throws -> SQLQuery {
        let limit = applyingLimit ? limitClause : SQLQuery()
        let rows = fromAndWhere(joinCount: predicateJoinCount)
        if limit.sql.isEmpty { return .template("SELECT COUNT(*)%", rows) }
        return .template("SELECT COUNT(*) FROM (SELECT 1%%)", rows, limit)
    }

    /// ` FROM "Table" t0 [joins] [WHERE …]`.
    private func fromAndWhere(joinCount: Int) -> SQLQuery {
        var query = SQLQuery(" FROM \(SQLiteIdentifier.quote(layout.table(of: entity))) \(Self.rootAlias)")
        for join in joins.prefix(joinCount) { query.append(" " + join) }
        if !conditions.isEmpty {
            query.append(" WHERE ")
            query.append(.joined(conditions, separator: " AND "))
        }
        return query
    }

    /// ` LIMIT ? OFFSET ?` when the request has a limit or an offset (`LIMIT -1` for none).
    private var limitClause: SQLQuery {
        guard request.fetchLimit != nil || request.fetchOffset > 0 else { return SQLQuery() }
        return SQLQuery(
            " LIMIT ? OFFSET ?", [.integer(Int64(request.fetchLimit ?? -1)), .integer(Int64(request.fetchOffset))])
    }
}
