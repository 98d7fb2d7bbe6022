// The comparisons of typed keys: each builds the same `FetchPredicate` as the untyped
// `PredicateKey` (docs/Predicates.md), but only for values of the key's Swift type — numbers and
// dates order, strings also match patterns, anything compares for equality.

extension TypedPredicateKey where Value: PredicateArgument {
    /// `key == value`; `key == nil` tests for nil.
    public static func == (lhs: Self, rhs: Value?) -> FetchPredicate {
        lhs.predicateKey == rhs
    }

    /// `key != value` (true when the key is nil and the value is not); `key != nil` tests for a value.
    public static func != (lhs: Self, rhs: Value?) -> FetchPredicate {
        lhs.predicateKey != rhs
    }

    /// `key == otherKey`, for two keys of the same value type.
    public static func == <Other: TypedPredicateKey<Root, Value>>(lhs: Self, rhs: Other) -> FetchPredicate {
        lhs.predicateKey == rhs.predicateKey
    }

    /// `key != otherKey`.
    public static func != <Other: TypedPredicateKey<Root, Value>>(lhs: Self, rhs: Other) -> FetchPredicate {
        lhs.predicateKey != rhs.predicateKey
    }

    /// `key IN {values…}`: equal to one of `values`.
    public func `in`<Values: Sequence<Value>>(_ values: Values) -> FetchPredicate {
        predicateKey.in(values)
    }
}

extension TypedPredicateKey where Value: PredicateArgument & Comparable {
    /// `key < value`.
    public static func < (lhs: Self, rhs: Value) -> FetchPredicate {
        lhs.predicateKey < rhs
    }

    /// `key <= value`.
    public static func <= (lhs: Self, rhs: Value) -> FetchPredicate {
        lhs.predicateKey <= rhs
    }

    /// `key > value`.
    public static func > (lhs: Self, rhs: Value) -> FetchPredicate {
        lhs.predicateKey > rhs
    }

    /// `key >= value`.
    public static func >= (lhs: Self, rhs: Value) -> FetchPredicate {
        lhs.predicateKey >= rhs
    }

    /// `key < otherKey`.
    public static func < <Other: TypedPredicateKey<Root, Value>>(lhs: Self, rhs: Other) -> FetchPredicate {
        lhs.predicateKey < rhs.predicateKey
    }

    /// `key <= otherKey`.
    public static func <= <Other: TypedPredicateKey<Root, Value>>(lhs: Self, rhs: Other) -> FetchPredicate {
        lhs.predicateKey <= rhs.predicateKey
    }

    /// `key > otherKey`.
    public static func > <Other: TypedPredicateKey<Root, Value>>(lhs: Self, rhs: Other) -> FetchPredicate {
        lhs.predicateKey > rhs.predicateKey
    }

    /// `key >= otherKey`.
    public static func >= <Other: TypedPredicateKey<Root, Value>>(lhs: Self, rhs: Other) -> FetchPredicate {
        lhs.predicateKey >= rhs.predicateKey
    }

    /// `key BETWEEN {low, high}`: low ≤ key ≤ high.
    public func between(_ low: Value, _ high: Value) -> FetchPredicate {
        predicateKey.between(low, high)
    }
}

extension TypedPredicateKey where Value == String {
    /// `key ==[options] value`: equality with case or diacritic folding.
    public func equals(_ value: String, options: StringComparisonOptions) -> FetchPredicate {
        predicateKey.equals(value, options: options)
    }

    /// `key BEGINSWITH[options] prefix`.
    public func beginsWith(_ prefix: String, options: StringComparisonOptions = []) -> FetchPredicate {
        predicateKey.beginsWith(prefix, options: options)
    }

    /// `key ENDSWITH[options] suffix`.
    public func endsWith(_ suffix: String, options: StringComparisonOptions = []) -> FetchPredicate {
        predicateKey.endsWith(suffix, options: options)
    }

    /// `key CONTAINS[options] substring`.
    public func contains(_ substring: String, options: StringComparisonOptions = []) -> FetchPredicate {
        predicateKey.contains(substring, options: options)
    }

    /// `key LIKE[options] pattern` (`*` any run of characters, `?` one character).
    public func like(_ pattern: String, options: StringComparisonOptions = []) -> FetchPredicate {
        predicateKey.like(pattern, options: options)
    }

    /// `key MATCHES[options] regex`: the whole string matches the regular expression.
    public func matches(_ regex: String, options: StringComparisonOptions = []) -> FetchPredicate {
        predicateKey.matches(regex, options: options)
    }
}
