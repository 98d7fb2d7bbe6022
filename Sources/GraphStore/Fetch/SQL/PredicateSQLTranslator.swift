// Translates predicates into SQL conditions over a fetch query's aliases (docs/Predicates.md).
// Invariants:
// - Values are always bound parameters, converted to the attribute's stored representation
//   (Date → seconds, Boolean → 0/1, UUID → 16-byte blob, numbers as INTEGER or REAL; a Decimal
//   column is compared through CAST(… AS REAL)); only identifiers and model-derived integers
//   are written into the SQL text.
// - Logic is two-valued like `PredicateEvaluator`: a comparison that SQL may leave NULL (because
//   an operand is NULL) is wrapped in `coalesce(…, 0)` under NOT, and `!=` uses `IS NOT`, so a
//   nil value matches `!= x` and `NOT (x < 5)`.
// - Case-sensitive BEGINSWITH, ENDSWITH and CONTAINS use built-in substr/instr/length, which
//   work on Unicode code points and compare bytes, matching the evaluator's UTF-8 comparisons.

/// A SQL condition and whether it can evaluate to NULL.
struct SQLCondition {
    var query: SQLQuery
    /// Whether the condition may be NULL (never true for NOT; coalesced before negation).
    var mayBeNull: Bool

    static let alwaysTrue = SQLCondition(query: SQLQuery("1"), mayBeNull: false)
    static let alwaysFalse = SQLCondition(query: SQLQuery("0"), mayBeNull: false)
}

/// Writes the SQL for predicates on one fetched entity.
struct PredicateSQLTranslator {
    /// Resolves key paths and collects the joins the conditions need.
    var resolver: SQLKeyPathResolver
    /// The members of enclosing subqueries and quantifiers, by variable name.
    var scopes: [String: MemberScope] = [:]
    /// How many subqueries have been written (their aliases are s1, s2, …).
    var subqueryCount = 0
    /// Names that stand for computed values (a dictionary fetch's aggregates, for HAVING).
    var namedExpressions: [String: Operand] = [:]

    init(resolver: SQLKeyPathResolver) {
        self.resolver = resolver
    }

    var model: ObjectModel { resolver.layout.model }

    /// The condition for `predicate`.
    mutating func condition(_ predicate: FetchPredicate) throws -> SQLCondition {
        switch predicate {
        case .constant(let value):
            return value ? .alwaysTrue : .alwaysFalse
        case .and(let elements):
            return try junction(elements, separator: " AND ", empty: .alwaysTrue)
        case .or(let elements):
            return try junction(elements, separator: " OR ", empty: .alwaysFalse)
        case .not(let operand):
            let inner = try condition(operand)
            let negated =
                inner.mayBeNull
                ? SQLQuery.template("NOT coalesce(%, 0)", inner.query)
                : SQLQuery.template("NOT (%)", inner.query)
            return SQLCondition(query: negated, mayBeNull: false)
        case .comparison(let comparison) where comparison.modifier != .direct:
            return try quantified(comparison)
        case .comparison(let comparison) where endsAtToMany(comparison.membershipQuantifier?.lhs):
            return try quantified(comparison.membershipQuantifier ?? comparison)
        case .comparison(let comparison):
            return try self.comparison(comparison)
        }
    }

    private mutating func junction(_ elements: [FetchPredicate], separator: String, empty: SQLCondition) throws
        -> SQLCondition
    {
        let conditions = try elements.map { try condition($0) }
        guard !conditions.isEmpty else { return empty }
        let joined = SQLQuery.joined(conditions.map(\.query), separator: separator)
        return SQLCondition(query: .template("(%)", joined), mayBeNull: conditions.contains(where: \.mayBeNull))
    }

    // MARK: - Operands

    /// A comparison operand: a resolved key path, a value computed by a subquery (a collection
    /// operator or a SUBQUERY's count), a constant or a collection.
    enum Operand {
        case keyPath(String, ResolvedKeyPath)
        case computed(SQLQuery, type: AttributeType, description: String)
        case constant(PredicateConstant)
        case list([Operand])

        var containsKeyPath: Bool {
            switch self {
            case .keyPath, .computed: true
            case .constant: false
            case .list(let elements): elements.contains(where: \.containsKeyPath)
            }
        }

        /// What the first key path in the operand (depth first) compares.
        var kind: Kind? {
            switch self {
            case .keyPath(let path, let resolved): Kind(path, resolved)
            case .computed(_, let type, let description): .values(ValueFamily(type), type: type, keyPath: description)
            case .constant: nil
            case .list(let elements): elements.lazy.compactMap(\.kind).first
            }
        }

        var isNull: Bool {
            if case .constant(.null) = self { return true }
            return false
        }

        /// The operand as the evaluator sees it, when it holds no key path.
        var evaluatorOperand: PredicateEvaluator.Operand? {
            switch self {
            case .keyPath, .computed: nil
            case .constant(let constant): PredicateEvaluator.Operand(constant)
            case .list(let elements):
                elements.allSatisfy { $0.evaluatorOperand != nil }
                    ? .list(elements.compactMap(\.evaluatorOperand)) : nil
            }
        }
    }

    mutating func operand(_ expression: FetchExpression) throws -> Operand {
        switch expression {
        case .keyPath(let path): try keyPathOperand(path, from: nil)
        case .constant(let constant): .constant(constant)
        case .variable(let name): try keyPathOperand(FetchExpression.selfKeyPath, from: name)
        case .aggregate(let elements): .list(try elements.map { try operand($0) })
        case .member(.variable(let name), let path): try keyPathOperand(path, from: name)
        case .member(.subquery(let collection, let variable, let predicate), let path):
            try subqueryOperand(collection, variable: variable, predicate: predicate, keyPath: path)
        case .member(let base, _):
            throw FetchError.invalidComparison("a key path can follow only a $variable or a SUBQUERY, not \(base)")
        case .subquery:
            throw FetchError.invalidComparison("a SUBQUERY is compared through its @count in \(expression)")
        }
    }

    /// What a comparison compares, taken from its first key path.
    enum Kind {
        /// Attribute values of one family; `type` is the key path's attribute type.
        case values(ValueFamily, type: AttributeType, keyPath: String)
        /// Objects of one inheritance tree (the root entity's index).
        case objects(rootIndex: Int, keyPath: String)

        init(_ path: String, _ resolved: ResolvedKeyPath) {
            switch resolved {
            case .attribute(let attribute, _):
                self = .values(ValueFamily(attribute.type), type: attribute.type, keyPath: path)
            case .object(let entity, _): self = .objects(rootIndex: entity.rootIndex, keyPath: path)
            }
        }

        var keyPath: String {
            switch self {
            case .values(_, _, let keyPath), .objects(_, let keyPath): keyPath
            }
        }

        var isText: Bool {
            if case .values(let family, _, _) = self { return family.isText }
            return false
        }

        var expectation: String {
            switch self {
            case .values(_, let type, _): "a value of type \(type.rawValue)"
            case .objects: "an object"
            }
        }
    }

    // MARK: - Comparisons

    mutating func comparison(_ comparison: PredicateComparison) throws -> SQLCondition {
        let lhs = try operand(comparison.lhs)
        let rhs = try operand(comparison.rhs)
        guard let kind = lhs.kind ?? rhs.kind else {
            return try constantComparison(comparison, lhs, rhs)
        }
        let options = kind.isText ? comparison.options : []
        let context = Context(kind: kind, options: options)
        switch comparison.comparisonOperator {
        case .equalTo, .notEqualTo:
            return try equality(lhs, rhs, negated: comparison.comparisonOperator == .notEqualTo, context: context)
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            guard case .values = kind else {
                throw FetchError.invalidComparison("objects can only be tested for equality in \(comparison)")
            }
            let symbol = comparison.comparisonOperator.formatToken
            return nullable(.template("% \(symbol) %", try render(lhs, context), try render(rhs, context)))
        case .between:
            guard case .values = kind, case .list(let bounds) = rhs, bounds.count == 2 else {
                throw FetchError.invalidComparison("BETWEEN needs a value and {low, high} in \(comparison)")
            }
            return nullable(
                .template(
                    "% BETWEEN % AND %", try render(lhs, context), try render(bounds[0], context),
                    try render(bounds[1], context)))
        case .in:
            guard case .list(let elements) = rhs else {
                throw FetchError.invalidComparison("IN needs a collection in \(comparison)")
            }
            return try membership(lhs, elements, context: context)
        case .beginsWith, .endsWith, .contains, .like, .matches:
            guard kind.isText else {
                throw FetchError.typeMismatch(keyPath: kind.keyPath, expected: "a string", found: kind.expectation)
            }
            if comparison.comparisonOperator == .matches {
                return try regexMatch(lhs, rhs, options: options, kind: kind)
            }
            return try stringOperation(comparison.comparisonOperator, lhs, rhs, context: context)
        }
    }

    private func nullable(_ query: SQLQuery) -> SQLCondition {
        SQLCondition(query: query, mayBeNull: true)
    }

    /// A comparison without key paths, decided now by the evaluator (so it has the same result).
    private func constantComparison(_ comparison: PredicateComparison, _ lhs: Operand, _ rhs: Operand) throws
        -> SQLCondition
    {
        guard let left = lhs.evaluatorOperand, let right = rhs.evaluatorOperand else { return .alwaysFalse }
        return try PredicateEvaluator.evaluate(comparison, lhs: left, rhs: right) ? .alwaysTrue : .alwaysFalse
    }

    /// `==` and `!=`: `IS NULL` for nil, `=` against a constant, `IS` between key paths; `!=` is
    /// `IS NOT`, true when exactly one side is NULL.
    private func equality(_ lhs: Operand, _ rhs: Operand, negated: Bool, context: Context) throws
        -> SQLCondition
    {
        if lhs.isNull || rhs.isNull {
            let other = lhs.isNull ? rhs : lhs
            let test = negated ? "% IS NOT NULL" : "% IS NULL"
            return SQLCondition(query: .template(test, try render(other, context)), mayBeNull: false)
        }
        let left = try render(lhs, context)
        let right = try render(rhs, context)
        if negated { return SQLCondition(query: .template("% IS NOT %", left, right), mayBeNull: false) }
        let bothKeyPaths = lhs.containsKeyPath && rhs.containsKeyPath
        return SQLCondition(query: .template(bothKeyPaths ? "% IS %" : "% = %", left, right), mayBeNull: !bothKeyPaths)
    }

    /// `IN`: `x IN (…)`, with `OR x IS NULL` when the collection holds nil; false when empty.
    private func membership(_ lhs: Operand, _ elements: [Operand], context: Context) throws
        -> SQLCondition
    {
        let values = elements.filter { !$0.isNull }
        let left = try render(lhs, context)
        var terms: [SQLQuery] = []
        if !values.isEmpty {
            let list = SQLQuery.joined(try values.map { try render($0, context) }, separator: ", ")
            terms.append(.template("% IN (%)", left, list))
        }
        if values.count < elements.count { terms.append(.template("% IS NULL", left)) }
        guard !terms.isEmpty else { return .alwaysFalse }
        return SQLCondition(query: .template("(%)", .joined(terms, separator: " OR ")), mayBeNull: !values.isEmpty)
    }

    /// `seedkit_matches(text, pattern, options)` on the unfolded text; a constant pattern is
    /// checked now, so an invalid one fails when the fetch is built.
    private func regexMatch(_ lhs: Operand, _ rhs: Operand, options: StringComparisonOptions, kind: Kind) throws
        -> SQLCondition
    {
        if case .constant(.value(let value)) = rhs, let pattern = value.predicateText {
            _ = try RegexMatcher(pattern: pattern, options: options)
        }
        let plain = Context(kind: kind, options: [])
        return nullable(
            .template(
                "\(SQLFunctions.matches)(%, %, \(options.rawValue))", try render(lhs, plain), try render(rhs, plain)))
    }

    private func stringOperation(
        _ comparisonOperator: ComparisonOperator, _ lhs: Operand, _ rhs: Operand, context: Context
    ) throws -> SQLCondition {
        let text = try render(lhs, context)
        let pattern = try render(rhs, context)
        let query: SQLQuery
        switch comparisonOperator {
        case .beginsWith:
            query = .template("substr(%, 1, %) = %", text, try length(rhs, context), pattern)
        case .endsWith:
            query = .template("substr(%, length(%) - % + 1) = %", text, text, try length(rhs, context), pattern)
        case .contains:
            query = .template("instr(%, %) > 0", text, pattern)
        default:
            query = .template("\(SQLFunctions.like)(%, %)", text, pattern)
        }
        return nullable(query)
    }

    // MARK: - Rendering operands

    /// What a comparison compares and how strings are folded.
    struct Context {
        let kind: Kind
        /// The string options; empty unless the kind is text.
        let options: StringComparisonOptions
    }

    /// An operand as a SQL value: a column (a Decimal cast to REAL, text folded when options are
    /// set) or a bound constant converted to the stored representation of the kind.
    private func render(_ operand: Operand, _ context: Context) throws -> SQLQuery {
        switch operand {
        case .keyPath(let path, let resolved):
            return try column(path, resolved, context)
        case .computed(let query, let type, let description):
            guard case .values(let family, _, _) = context.kind, ValueFamily(type) == family else {
                throw FetchError.typeMismatch(
                    keyPath: context.kind.keyPath, expected: context.kind.expectation,
                    found: "the \(type.rawValue) value \(description)")
            }
            if context.options.isEmpty { return query }
            return .template("\(SQLFunctions.fold)(%, \(context.options.rawValue))", query)
        case .constant(.null):
            return .parameter(nil)
        case .constant(let constant):
            return .parameter(try binding(constant, context))
        case .list:
            throw FetchError.invalidComparison("a collection cannot be compared with \(context.kind.keyPath)")
        }
    }

    private func column(_ path: String, _ resolved: ResolvedKeyPath, _ context: Context) throws -> SQLQuery {
        switch (resolved, context.kind) {
        case (.attribute(let attribute, let column), .values(let family, _, _))
        where ValueFamily(attribute.type) == family:
            if attribute.type == .decimal { return SQLQuery("CAST(\(column) AS REAL)") }
            if !context.options.isEmpty {
                return SQLQuery("\(SQLFunctions.fold)(\(column), \(context.options.rawValue))")
            }
            return SQLQuery(column)
        case (.object(let entity, let column), .objects(let rootIndex, _)) where entity.rootIndex == rootIndex:
            return SQLQuery(column)
        case (.attribute(let attribute, _), _):
            throw FetchError.typeMismatch(
                keyPath: context.kind.keyPath, expected: context.kind.expectation,
                found: "the \(attribute.type.rawValue) key path \(path)")
        case (.object(let entity, _), _):
            throw FetchError.typeMismatch(
                keyPath: context.kind.keyPath, expected: context.kind.expectation,
                found: "the \(entity.name) key path \(path)")
        }
    }

    /// A constant as the value to bind: converted to the kind's stored representation, folded
    /// for string options; ObjectIDs as their primary key.
    private func binding(_ constant: PredicateConstant, _ context: Context) throws -> AttributeValue? {
        switch (constant, context.kind) {
        case (.null, _):
            return nil
        case (.value(let value), .values(let family, _, _)):
            guard let coerced = family.coerced(value) else {
                throw FetchError.typeMismatch(
                    keyPath: context.kind.keyPath, expected: context.kind.expectation,
                    found: "\(value.kindName) \(value)")
            }
            if let number = NumericValue(coerced) { return number.attributeValue }
            if let text = coerced.predicateText { return .string(StringFolding.fold(text, options: context.options)) }
            return coerced
        case (.object(let id), .objects(let rootIndex, _)):
            guard let entity = resolver.layout.entity(number: id.entityID), entity.rootIndex == rootIndex else {
                throw FetchError.typeMismatch(
                    keyPath: context.kind.keyPath, expected: context.kind.expectation, found: "the object \(id)")
            }
            return .integer(id.key)
        case (.value(let value), .objects):
            throw FetchError.typeMismatch(
                keyPath: context.kind.keyPath, expected: context.kind.expectation, found: "\(value.kindName) \(value)")
        case (.object(let id), .values):
            throw FetchError.typeMismatch(
                keyPath: context.kind.keyPath, expected: context.kind.expectation, found: "the object \(id)")
        }
    }

    /// The length in code points of a string operand: bound when constant, `length(…)` otherwise.
    private func length(_ operand: Operand, _ context: Context) throws -> SQLQuery {
        guard case .constant(.value(let value)) = operand else {
            return .template("length(%)", try render(operand, context))
        }
        guard let text = value.predicateText else {
            throw FetchError.typeMismatch(
                keyPath: context.kind.keyPath, expected: "a string", found: "\(value.kindName) \(value)")
        }
        return .parameter(.integer(Int64(StringFolding.fold(text, options: context.options).unicodeScalars.count)))
    }
}
