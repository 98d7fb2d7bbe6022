// SQL for predicates over to-many relationships: ANY / ALL / NONE as EXISTS and NOT EXISTS
// subqueries, collection operators and SUBQUERY(…).@count as scalar subqueries, and key paths
// from a subquery's `$variable`.
// Invariants: every subquery is correlated with its owner through `SQLCollectionScope`, so it
// reads only that owner's members; `ALL` is `NOT EXISTS (… AND NOT condition)` with the
// condition coalesced to false, so a member whose value is nil fails `ALL x > 5` as it does in
// memory; `@count` is 0, `@sum` 0 and `@avg`/`@min`/`@max` NULL over no members.

extension PredicateSQLTranslator {
    /// The members a variable stands for inside a subquery or quantifier.
    struct MemberScope {
        /// Resolves key paths from the member.
        var resolver: SQLKeyPathResolver
        /// How key paths from the member are named in messages (`$e`, or the quantified key path).
        let display: String
    }

    /// `ANY`, `ALL` or `NONE`: an EXISTS subquery over the members of the left key path's to-many.
    mutating func quantified(_ comparison: PredicateComparison) throws -> SQLCondition {
        let variable: String?
        let path: String
        switch comparison.lhs {
        case .keyPath(let keyPath): (variable, path) = (nil, keyPath)
        case .member(.variable(let name), let keyPath): (variable, path) = (name, keyPath)
        default:
            throw FetchError.invalidComparison(
                "\(comparison.modifier.formatToken) needs a key path through a to-many relationship in \(comparison)")
        }
        let hop = try resolving(from: variable) { try $0.collection(path) }
        var scope = try makeScope(hop)
        let name = "#\(subqueryCount)"  // `#` cannot start a variable in a format string: no clash
        let collectionPath = String(path.dropLast(hop.rest.isEmpty ? 0 : hop.rest.count + 1))
        scopes[name] = MemberScope(
            resolver: scope.resolver, display: (variable.map { "$\($0)." } ?? "") + collectionPath)
        var element = comparison
        element.modifier = .direct
        element.lhs = hop.rest.isEmpty ? .variable(name) : .member(.variable(name), keyPath: hop.rest)
        let inner = try self.comparison(element)
        scope.resolver = scopes.removeValue(forKey: name)?.resolver ?? scope.resolver
        switch comparison.modifier {
        case .any, .direct:
            return SQLCondition(
                query: .template("EXISTS %", scope.query(selecting: "1", where: [inner.query])), mayBeNull: false)
        case .none:
            return SQLCondition(
                query: .template("NOT EXISTS %", scope.query(selecting: "1", where: [inner.query])), mayBeNull: false)
        case .all:
            let failing = SQLQuery.template(inner.mayBeNull ? "NOT coalesce(%, 0)" : "NOT (%)", inner.query)
            return SQLCondition(
                query: .template("NOT EXISTS %", scope.query(selecting: "1", where: [failing])), mayBeNull: false)
        }
    }

    /// A key path from the fetched object (`variable` nil) or from a subquery's member: a column,
    /// or a collection operator's scalar subquery.
    mutating func keyPathOperand(_ path: String, from variable: String?) throws -> Operand {
        if variable == nil, let named = namedExpressions[path] { return named }
        let keys = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let description = try displayName(of: path, from: variable)
        if let operatorIndex = keys.firstIndex(where: { $0.first == "@" }) {
            return try collectionOperand(
                keys[operatorIndex], of: keys[..<operatorIndex].joined(separator: "."),
                valueKeyPath: keys[(operatorIndex + 1)...].joined(separator: "."), from: variable,
                description: description)
        }
        return .keyPath(description, try resolving(from: variable) { try $0.resolve(path) })
    }

    /// `SUBQUERY(collection, $variable, predicate).@count`: a scalar COUNT subquery.
    mutating func subqueryOperand(
        _ collection: FetchExpression, variable: String, predicate: FetchPredicate, keyPath: String
    ) throws -> Operand {
        let description = FetchExpression.member(
            .subquery(collection: collection, variable: variable, predicate: predicate), keyPath: keyPath
        ).description
        guard CollectionOperator(key: keyPath) == .count else {
            throw FetchError.invalidComparison("a SUBQUERY can only be counted (.@count) in \(description)")
        }
        let base: String?
        let path: String
        switch collection {
        case .keyPath(let keyPath): (base, path) = (nil, keyPath)
        case .member(.variable(let name), let keyPath): (base, path) = (name, keyPath)
        default: throw FetchError.invalidComparison("SUBQUERY needs a to-many key path in \(description)")
        }
        let hop = try resolving(from: base) { try $0.collection(path) }
        guard hop.rest.isEmpty else {
            throw FetchError.invalidComparison("SUBQUERY needs a key path ending at a to-many in \(description)")
        }
        var scope = try makeScope(hop)
        let shadowed = scopes[variable]
        scopes[variable] = MemberScope(resolver: scope.resolver, display: "$" + variable)
        let condition = try self.condition(predicate)
        scope.resolver = scopes[variable]?.resolver ?? scope.resolver
        scopes[variable] = shadowed
        return .computed(
            scope.query(selecting: "COUNT(*)", where: [condition.query]), type: .integer64, description: description)
    }

    // MARK: - Collection operators

    /// `collection.@count`, `collection.@sum.value`, …: a scalar subquery over the members.
    private mutating func collectionOperand(
        _ operatorKey: String, of collectionPath: String, valueKeyPath: String, from variable: String?,
        description: String
    ) throws -> Operand {
        guard let collectionOperator = CollectionOperator(key: operatorKey), !collectionPath.isEmpty else {
            throw FetchError.unknownKeyPath(entity: resolver.entity.name, keyPath: description)
        }
        guard collectionOperator.needsValueKeyPath == !valueKeyPath.isEmpty else {
            throw FetchError.invalidComparison(
                collectionOperator.needsValueKeyPath
                    ? "\(operatorKey) needs a key path after it in \(description)"
                    : "nothing can follow @count in \(description)")
        }
        let hop = try resolving(from: variable) { try $0.collection(collectionPath) }
        guard hop.rest.isEmpty else {
            throw FetchError.invalidComparison(
                "\(operatorKey) must follow the to-many relationship directly in \(description)")
        }
        var scope = try makeScope(hop)
        if collectionOperator == .count {
            return .computed(scope.query(selecting: "COUNT(*)"), type: .integer64, description: description)
        }
        guard case .attribute(let attribute, let column) = try scope.resolver.resolve(valueKeyPath) else {
            throw FetchError.invalidComparison("\(operatorKey) needs an attribute in \(description)")
        }
        let isNumeric = ValueFamily(attribute.type) == .numeric
        let value = attribute.type == .decimal ? "CAST(\(column) AS REAL)" : column
        let valueType: AttributeType = attribute.type == .decimal ? .double : attribute.type
        let selection: String
        let type: AttributeType
        switch collectionOperator {
        case .count:
            (selection, type) = ("COUNT(*)", .integer64)
        case .sum where isNumeric:
            let isInteger = [.integer16, .integer32, .integer64, .boolean].contains(attribute.type)
            (selection, type) = ("coalesce(SUM(\(value)), 0)", isInteger ? .integer64 : .double)
        case .average where isNumeric:
            (selection, type) = ("AVG(\(value))", .double)
        case .minimum:
            (selection, type) = ("MIN(\(value))", valueType)
        case .maximum:
            (selection, type) = ("MAX(\(value))", valueType)
        case .sum, .average:
            throw FetchError.typeMismatch(
                keyPath: description, expected: "a numeric attribute", found: "the \(attribute.type.rawValue) attribute"
            )
        }
        return .computed(scope.query(selecting: selection), type: type, description: description)
    }

    /// Whether `expression` is a key path (from the object or a variable) that ends at a
    /// to-many relationship; checked on a copy, so no join is added.
    func endsAtToMany(_ expression: FetchExpression?) -> Bool {
        var probe = self
        let hop: SQLKeyPathResolver.CollectionHop?
        switch expression {
        case .keyPath(let path)?: hop = try? probe.resolving(from: nil) { try $0.collection(path) }
        case .member(.variable(let name), let path)?: hop = try? probe.resolving(from: name) { try $0.collection(path) }
        default: hop = nil
        }
        return hop?.rest.isEmpty ?? false
    }

    // MARK: - Scopes

    /// A new subquery over the members of `hop` (aliases s1, s2, … in the order they are made).
    private mutating func makeScope(_ hop: SQLKeyPathResolver.CollectionHop) throws -> SQLCollectionScope {
        subqueryCount += 1
        return try SQLCollectionScope(layout: resolver.layout, hop: hop, alias: "s\(subqueryCount)")
    }

    /// Runs `body` on the resolver of the fetched object (`variable` nil) or of a variable's members.
    private mutating func resolving<T>(from variable: String?, _ body: (inout SQLKeyPathResolver) throws -> T)
        throws -> T
    {
        guard let variable else { return try body(&resolver) }
        guard var scope = scopes[variable] else { throw FetchError.unsubstitutedVariable(variable) }
        let result = try body(&scope.resolver)
        scopes[variable] = scope
        return result
    }

    /// How a key path from a variable's members reads in messages: `$e.age`, `employees.age`.
    private func displayName(of path: String, from variable: String?) throws -> String {
        guard let variable else { return path }
        guard let scope = scopes[variable] else { throw FetchError.unsubstitutedVariable(variable) }
        return path == FetchExpression.selfKeyPath ? scope.display : scope.display + "." + path
    }
}
