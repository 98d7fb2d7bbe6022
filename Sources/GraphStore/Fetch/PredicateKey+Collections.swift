// The Swift predicate API for to-many relationships: ANY/ALL/NONE key paths, collection
// operators, subqueries and their variables. Each builds the same expression the format-string
// parser does, so `description` prints both the same way.

extension PredicateKey {
    /// `ANY keyPath …`: at least one member of the to-many on the way satisfies the comparison.
    ///
    /// ```swift
    /// let predicate: FetchPredicate = .any("employees.age") > 50     // ANY employees.age > 50
    /// ```
    public static func any(_ keyPath: String) -> PredicateKey {
        PredicateKey(expression: .keyPath(keyPath), modifier: .any)
    }

    /// `ALL keyPath …`: every member satisfies the comparison (true when there are none).
    public static func all(_ keyPath: String) -> PredicateKey {
        PredicateKey(expression: .keyPath(keyPath), modifier: .all)
    }

    /// `NONE keyPath …`: no member satisfies the comparison (true when there are none).
    public static func none(_ keyPath: String) -> PredicateKey {
        PredicateKey(expression: .keyPath(keyPath), modifier: .none)
    }

    /// `$name` or `$name.keyPath`: a subquery's variable (or a template variable).
    ///
    /// ```swift
    /// let inner: FetchPredicate = .variable("e", "age") > 30       // $e.age > 30
    /// ```
    public static func variable(_ name: String, _ keyPath: String? = nil) -> PredicateKey {
        PredicateKey(expression: keyPath.map { .member(.variable(name), keyPath: $0) } ?? .variable(name))
    }

    /// `SUBQUERY(collection, $variable, predicate)`: the members of a to-many for which
    /// `predicate` holds; compare its ``count``.
    ///
    /// ```swift
    /// let predicate: FetchPredicate =
    ///     .subquery("employees", "e", .variable("e", "age") > 30 && .variable("e", "name").beginsWith("B")).count > 0
    /// ```
    public static func subquery(_ collection: String, _ variable: String, _ predicate: FetchPredicate)
        -> PredicateKey
    {
        PredicateKey(expression: .subquery(collection: .keyPath(collection), variable: variable, predicate: predicate))
    }

    /// `key.@count`: the number of members of a to-many (or of a subquery's result).
    public var count: PredicateKey { appending(CollectionOperator.count.rawValue) }

    /// `key.@sum.keyPath`: the sum of the members' values.
    public func sum(_ keyPath: String) -> PredicateKey { appending(CollectionOperator.sum.rawValue + "." + keyPath) }

    /// `key.@avg.keyPath`: the mean of the members' values.
    ///
    /// ```swift
    /// let predicate: FetchPredicate = .key("employees").average("age") > 30   // employees.@avg.age > 30
    /// ```
    public func average(_ keyPath: String) -> PredicateKey {
        appending(CollectionOperator.average.rawValue + "." + keyPath)
    }

    /// `key.@min.keyPath`: the smallest of the members' values.
    public func minimum(_ keyPath: String) -> PredicateKey {
        appending(CollectionOperator.minimum.rawValue + "." + keyPath)
    }

    /// `key.@max.keyPath`: the largest of the members' values.
    public func maximum(_ keyPath: String) -> PredicateKey {
        appending(CollectionOperator.maximum.rawValue + "." + keyPath)
    }

    /// The key with `suffix` appended to its key path (as a member of non-key-path expressions).
    private func appending(_ suffix: String) -> PredicateKey {
        switch expression {
        case .keyPath(let path): PredicateKey(expression: .keyPath(path + "." + suffix), modifier: modifier)
        case .member(let base, let path):
            PredicateKey(expression: .member(base, keyPath: path + "." + suffix), modifier: modifier)
        default: PredicateKey(expression: .member(expression, keyPath: suffix), modifier: modifier)
        }
    }
}

extension FetchPredicate {
    /// `ANY keyPath …`: `.any("employees.age") > 50`.
    public static func any(_ keyPath: String) -> PredicateKey { .any(keyPath) }

    /// `ALL keyPath …`: `.all("employees.age") < 60`.
    public static func all(_ keyPath: String) -> PredicateKey { .all(keyPath) }

    /// `NONE keyPath …`: `.none("employees.name") == "Bob"`.
    public static func none(_ keyPath: String) -> PredicateKey { .none(keyPath) }

    /// `$name` or `$name.keyPath`: `.variable("e", "age") > 30`.
    public static func variable(_ name: String, _ keyPath: String? = nil) -> PredicateKey {
        .variable(name, keyPath)
    }

    /// `SUBQUERY(collection, $variable, predicate)`: `.subquery("employees", "e", …).count > 0`.
    public static func subquery(_ collection: String, _ variable: String, _ predicate: FetchPredicate)
        -> PredicateKey
    {
        .subquery(collection, variable, predicate)
    }
}
