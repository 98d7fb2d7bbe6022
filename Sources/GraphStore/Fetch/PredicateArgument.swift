// Swift values that can stand in a predicate: `%@` arguments of format strings, right-hand sides
// of the Swift predicate API, and values for `$VARIABLES`.
// Invariant: integers become `.integer`, Float and Double `.double`, collections `.aggregate`,
// Optional.none `.null`; nothing here loses information except Float → Double widening.
import Foundation

/// A value usable as a predicate operand: numbers, strings, Booleans, dates, decimals, UUIDs,
/// data, URLs, object IDs, attribute values, and arrays and sets of them (for `IN`).
///
/// ```swift
/// let predicate = try FetchPredicate(format: "sku IN %@ AND added > %@", ["A1", "B2"], Date())
/// let same: FetchPredicate = .key("sku").in(["A1", "B2"]) && .key("added") > Date()
/// ```
public protocol PredicateArgument: Sendable {
    /// The value as a predicate expression: a constant, or an aggregate for a collection.
    var predicateExpression: FetchExpression { get }
}

extension PredicateArgument {
    /// Shorthand for conformances that are one attribute value.
    fileprivate static func value(_ value: AttributeValue) -> FetchExpression {
        .constant(.value(value))
    }
}

extension Int: PredicateArgument {
    /// The integer as an `.integer` constant.
    public var predicateExpression: FetchExpression { Self.value(.integer(Int64(self))) }
}

extension Int16: PredicateArgument {
    /// The integer as an `.integer` constant.
    public var predicateExpression: FetchExpression { Self.value(.integer(Int64(self))) }
}

extension Int32: PredicateArgument {
    /// The integer as an `.integer` constant.
    public var predicateExpression: FetchExpression { Self.value(.integer(Int64(self))) }
}

extension Int64: PredicateArgument {
    /// The integer as an `.integer` constant.
    public var predicateExpression: FetchExpression { Self.value(.integer(self)) }
}

extension Double: PredicateArgument {
    /// The number as a `.double` constant.
    public var predicateExpression: FetchExpression { Self.value(.double(self)) }
}

extension Float: PredicateArgument {
    /// The number, widened to Double, as a `.double` constant.
    public var predicateExpression: FetchExpression { Self.value(.double(Double(self))) }
}

extension Decimal: PredicateArgument {
    /// The number as a `.decimal` constant.
    public var predicateExpression: FetchExpression { Self.value(.decimal(self)) }
}

extension String: PredicateArgument {
    /// The string as a `.string` constant (`%K` reads it as a key path instead).
    public var predicateExpression: FetchExpression { Self.value(.string(self)) }
}

extension Bool: PredicateArgument {
    /// The Boolean as a `.boolean` constant.
    public var predicateExpression: FetchExpression { Self.value(.boolean(self)) }
}

extension Date: PredicateArgument {
    /// The date as a `.date` constant.
    public var predicateExpression: FetchExpression { Self.value(.date(self)) }
}

extension UUID: PredicateArgument {
    /// The UUID as a `.uuid` constant.
    public var predicateExpression: FetchExpression { Self.value(.uuid(self)) }
}

extension Data: PredicateArgument {
    /// The bytes as a `.binary` constant.
    public var predicateExpression: FetchExpression { Self.value(.binary(self)) }
}

extension URL: PredicateArgument {
    /// The URL as a `.uri` constant.
    public var predicateExpression: FetchExpression { Self.value(.uri(self)) }
}

extension AttributeValue: PredicateArgument {
    /// The value as a constant.
    public var predicateExpression: FetchExpression { .constant(.value(self)) }
}

extension ObjectID: PredicateArgument {
    /// The object as an `.object` constant.
    public var predicateExpression: FetchExpression { .constant(.object(self)) }
}

extension PredicateConstant: PredicateArgument {
    /// The constant itself.
    public var predicateExpression: FetchExpression { .constant(self) }
}

extension Optional: PredicateArgument where Wrapped: PredicateArgument {
    /// The wrapped value's expression, or the `nil` constant.
    public var predicateExpression: FetchExpression {
        map(\.predicateExpression) ?? .constant(.null)
    }
}

extension Array: PredicateArgument where Element: PredicateArgument {
    /// The elements as an aggregate, in order.
    public var predicateExpression: FetchExpression { .aggregate(map(\.predicateExpression)) }
}

extension Set: PredicateArgument where Element: PredicateArgument {
    /// The elements as an aggregate (in the set's iteration order).
    public var predicateExpression: FetchExpression { .aggregate(map(\.predicateExpression)) }
}
