// In-memory evaluation over to-many relationships: key paths that reach a collection, ANY / ALL
// / NONE, collection operators (`@count`, `@sum`, `@avg`, `@min`, `@max`) and subqueries.
// Invariants (the same as the SQL, docs/Predicates.md): a key path reaches at most one to-many;
// a nil to-one before it is an empty collection; after it, a nil to-one makes that member's
// value nil; `@count` is 0, `@sum` 0 and `@avg`/`@min`/`@max` nil for an empty collection.

extension PredicateEvaluator {
    /// Follows `path` from `start`: to-one keys, one to-many key (giving `.objects`), and a
    /// collection operator that folds the members into one value.
    static func walk(_ path: String, from start: PredicateOperand, subject: any PredicateSubject) throws
        -> PredicateOperand
    {
        let keys = path.split(separator: ".", omittingEmptySubsequences: false)
        var current = start
        for (index, key) in keys.enumerated() {
            if key.first == "@" {
                guard let collectionOperator = CollectionOperator(key: String(key)) else {
                    throw FetchError.unknownKeyPath(entity: entityName(of: subject), keyPath: path)
                }
                let rest = keys[(index + 1)...].joined(separator: ".")
                return try aggregate(collectionOperator, of: current, valueKeyPath: rest, path: path, subject: subject)
            }
            switch current {
            case .null:
                // A nil to-one: nil, or an empty collection for a collection operator further on.
                guard let next = keys[index...].firstIndex(where: { $0.first == "@" }) else { return .null }
                let rest = keys[(next + 1)...].joined(separator: ".")
                guard let collectionOperator = CollectionOperator(key: String(keys[next])) else {
                    throw FetchError.unknownKeyPath(entity: entityName(of: subject), keyPath: path)
                }
                return try aggregate(
                    collectionOperator, of: .objects([]), valueKeyPath: rest, path: path, subject: subject)
            case .object(let object): current = try object.predicateValue(forKey: String(key))
            case .objects: throw toManyError(path, relationship: index > 0 ? keys[index - 1] : nil, subject: subject)
            case .value: throw FetchError.unknownKeyPath(entity: entityName(of: subject), keyPath: path)
            }
        }
        return current
    }

    /// Where a member expression starts: a subquery variable's member, or a subquery's result.
    static func memberBase(
        _ base: FetchExpression, on subject: any PredicateSubject, bindings: [String: any PredicateSubject]
    ) throws -> PredicateOperand {
        switch base {
        case .variable(let name):
            guard let bound = bindings[name] else { throw FetchError.unsubstitutedVariable(name) }
            return .object(bound)
        case .subquery(let collection, let variable, let predicate):
            let members = try self.members(of: collection, on: subject, bindings: bindings)
            var selected: [any PredicateSubject] = []
            var inner = bindings
            for member in members {
                inner[variable] = member
                if try evaluate(predicate, on: subject, bindings: inner) { selected.append(member) }
            }
            return .objects(selected)
        default:
            throw FetchError.invalidComparison("a key path can follow only a $variable or a SUBQUERY, not \(base)")
        }
    }

    /// The members of a to-many named by a subquery's collection expression.
    private static func members(
        of collection: FetchExpression, on subject: any PredicateSubject, bindings: [String: any PredicateSubject]
    ) throws -> [any PredicateSubject] {
        let reached: PredicateOperand
        switch collection {
        case .keyPath(let path): reached = try walk(path, from: .object(subject), subject: subject)
        case .member(let base, let path):
            reached = try walk(path, from: try memberBase(base, on: subject, bindings: bindings), subject: subject)
        default:
            throw FetchError.invalidComparison("SUBQUERY needs a to-many key path, not \(collection)")
        }
        switch reached {
        case .objects(let members): return members
        case .null: return []
        default: throw FetchError.invalidComparison("SUBQUERY needs a to-many key path, not \(collection)")
        }
    }

    // MARK: - Quantifiers

    /// `ANY`, `ALL` or `NONE`: the comparison applied to each value the left key path reaches
    /// through its to-many relationship.
    static func quantified(
        _ comparison: PredicateComparison, on subject: any PredicateSubject, bindings: [String: any PredicateSubject]
    ) throws -> Bool {
        let values = try collectionValues(comparison, on: subject, bindings: bindings)
        let rhs = try operand(comparison.rhs, on: subject, bindings: bindings)
        switch comparison.modifier {
        case .any, .direct: return try values.contains { try evaluate(comparison, lhs: $0, rhs: rhs) }
        case .all: return try values.allSatisfy { try evaluate(comparison, lhs: $0, rhs: rhs) }
        case .none: return try !values.contains { try evaluate(comparison, lhs: $0, rhs: rhs) }
        }
    }

    /// The values of a quantified comparison's left key path, one per member of its to-many.
    private static func collectionValues(
        _ comparison: PredicateComparison, on subject: any PredicateSubject, bindings: [String: any PredicateSubject]
    ) throws -> [Operand] {
        let start: PredicateOperand
        let path: String
        switch comparison.lhs {
        case .keyPath(let keyPath):
            (start, path) = (.object(subject), keyPath)
        case .member(.variable(let name), let keyPath):
            guard let bound = bindings[name] else { throw FetchError.unsubstitutedVariable(name) }
            (start, path) = (.object(bound), keyPath)
        default:
            throw quantifierError(comparison)
        }
        let keys = path.split(separator: ".", omittingEmptySubsequences: false)
        var current = start
        for (index, key) in keys.enumerated() {
            guard case .object(let object) = current else {
                if case .null = current { return [] }
                throw FetchError.unknownKeyPath(entity: entityName(of: subject), keyPath: path)
            }
            current = try object.predicateValue(forKey: String(key))
            if case .objects(let members) = current {
                let rest = keys[(index + 1)...].joined(separator: ".")
                return try members.map { member in
                    rest.isEmpty
                        ? .object(member.subjectObjectID)
                        : try Operand(
                            walk(rest, from: .object(member), subject: subject), keyPath: path, subject: subject)
                }
            }
        }
        throw quantifierError(comparison)
    }

    /// Whether a key path (from the object or a variable) ends at a to-many relationship.
    static func reachesToMany(
        _ expression: FetchExpression, on subject: any PredicateSubject, bindings: [String: any PredicateSubject]
    ) throws -> Bool {
        let reached: PredicateOperand
        switch expression {
        case .keyPath(let path): reached = try walk(path, from: .object(subject), subject: subject)
        case .member(let base, let path):
            reached = try walk(path, from: try memberBase(base, on: subject, bindings: bindings), subject: subject)
        default: return false
        }
        if case .objects = reached { return true }
        return false
    }

    private static func quantifierError(_ comparison: PredicateComparison) -> FetchError {
        .invalidComparison(
            "\(comparison.modifier.formatToken) needs a key path through a to-many relationship in \(comparison)")
    }

    // MARK: - Collection operators

    /// The result of `collectionOperator` over the members in `collection`, reading each
    /// member's `valueKeyPath`.
    private static func aggregate(
        _ collectionOperator: CollectionOperator, of collection: PredicateOperand, valueKeyPath: String, path: String,
        subject: any PredicateSubject
    ) throws -> PredicateOperand {
        guard case .objects(let members) = collection else {
            throw FetchError.invalidComparison(
                "\(collectionOperator.rawValue) needs a to-many relationship before it in \(path)")
        }
        guard collectionOperator.needsValueKeyPath == !valueKeyPath.isEmpty else {
            throw FetchError.invalidComparison(
                collectionOperator.needsValueKeyPath
                    ? "\(collectionOperator.rawValue) needs a key path after it in \(path)"
                    : "nothing can follow @count in \(path)")
        }
        if collectionOperator == .count { return .value(.integer(Int64(members.count))) }
        var values: [AttributeValue] = []
        for member in members {
            switch try walk(valueKeyPath, from: .object(member), subject: subject) {
            case .value(let value): values.append(value)
            case .null: continue
            case .object, .objects:
                throw FetchError.invalidComparison("\(collectionOperator.rawValue) needs an attribute in \(path)")
            }
        }
        let result: AttributeValue?
        switch collectionOperator {
        case .count: result = .integer(Int64(members.count))
        case .sum: result = try CollectionAggregate.sum(values, path: path) ?? .integer(0)
        case .average: result = try CollectionAggregate.average(values, path: path)
        case .minimum: result = try CollectionAggregate.extreme(values, path: path, keepingSmaller: true)
        case .maximum: result = try CollectionAggregate.extreme(values, path: path, keepingSmaller: false)
        }
        return result.map(PredicateOperand.value) ?? .null
    }
}
