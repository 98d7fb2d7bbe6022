// The SQL parts of a dictionary fetch: result columns (attributes through to-ones, aggregates),
// GROUP BY terms and the HAVING condition, resolved with the fetch's own translator so they share
// its joins.
// Invariants: every column has the attribute type its values are read back as; with grouping,
// each plain key path must be one of the group key paths (as in Core Data); aggregate names are
// usable in the HAVING predicate.

/// How a dictionary fetch selects, groups and filters its rows.
struct DictionaryPlan {
    /// One result column.
    struct Column {
        /// The key in the result dictionaries.
        let name: String
        /// The SQL expression.
        let sql: String
        /// How values are read back.
        let type: AttributeType
        /// The attribute whose values the column holds as they are stored (nil for computed values).
        var attribute: ModelAttribute? = nil
    }

    let columns: [Column]
    let groupTerms: [String]
    let having: SQLQuery?

    /// Resolves `request`'s dictionary properties with `translator`.
    ///
    /// - Throws: ``FetchError`` for an unknown key path, a key path that is not an attribute, a
    ///   plain property missing from the grouping, a HAVING predicate without grouping, or
    ///   a sum or average of non-numbers.
    init(request: FetchRequest, translator: inout PredicateSQLTranslator) throws {
        let entity = translator.resolver.entity
        var groupTerms: [String] = []
        for path in request.propertiesToGroupBy {
            groupTerms.append(try Self.attributeColumn(path, translator: &translator).column)
        }
        var columns: [Column] = []
        for property in request.propertiesToFetch {
            switch property {
            case .keyPath(let path):
                guard request.propertiesToGroupBy.isEmpty || request.propertiesToGroupBy.contains(path) else {
                    throw FetchError.invalidRequest("\(entity.name).\(path) is fetched but not grouped by")
                }
                let (attribute, column) = try Self.attributeColumn(path, translator: &translator)
                columns.append(Column(name: path, sql: column, type: attribute.type, attribute: attribute))
            case .aggregate(let name, let function, let path):
                let column = try Self.aggregate(function, of: path, translator: &translator)
                columns.append(column.renamed(name))
                translator.namedExpressions[name] = .computed(
                    SQLQuery(column.sql), type: column.type, description: name)
            }
        }
        if let having = request.havingPredicate {
            guard !groupTerms.isEmpty else { throw FetchError.invalidRequest("a HAVING predicate needs grouping") }
            self.having = try translator.condition(having).query
        } else {
            self.having = nil
        }
        self.columns = columns
        self.groupTerms = groupTerms
    }

    /// The column of the attribute at `path`.
    private static func attributeColumn(_ path: String, translator: inout PredicateSQLTranslator) throws
        -> (attribute: ModelAttribute, column: String)
    {
        guard case .attribute(let attribute, let column) = try translator.resolver.resolve(path) else {
            throw FetchError.unsupportedKeyPath(
                entity: translator.resolver.entity.name, keyPath: path, reason: "dictionary results hold attributes")
        }
        return (attribute, column)
    }

    /// `COUNT(…)`, `SUM(…)`, … of the attribute at `path` (`self` for COUNT(*)).
    private static func aggregate(
        _ function: AggregateFunction, of path: String, translator: inout PredicateSQLTranslator
    )
        throws -> Column
    {
        if function == .count && path == FetchExpression.selfKeyPath {
            return Column(name: "", sql: "COUNT(*)", type: .integer64)
        }
        let (attribute, column) = try attributeColumn(path, translator: &translator)
        let value = attribute.type == .decimal ? "CAST(\(column) AS REAL)" : column
        let isNumeric = ValueFamily(attribute.type) == .numeric
        let isInteger = [.integer16, .integer32, .integer64, .boolean].contains(attribute.type)
        let valueType: AttributeType = attribute.type == .decimal ? .double : attribute.type
        switch function {
        case .count: return Column(name: "", sql: "COUNT(\(column))", type: .integer64)
        case .sum where isNumeric: return Column(name: "", sql: "SUM(\(value))", type: isInteger ? .integer64 : .double)
        case .average where isNumeric: return Column(name: "", sql: "AVG(\(value))", type: .double)
        case .minimum: return Column(name: "", sql: "MIN(\(value))", type: valueType)
        case .maximum: return Column(name: "", sql: "MAX(\(value))", type: valueType)
        case .sum, .average:
            throw FetchError.typeMismatch(
                keyPath: path, expected: "a numeric attribute", found: "the \(attribute.type.rawValue) attribute")
        }
    }
}

extension DictionaryPlan.Column {
    /// The column under another name.
    func renamed(_ name: String) -> DictionaryPlan.Column {
        DictionaryPlan.Column(name: name, sql: sql, type: type)
    }
}
