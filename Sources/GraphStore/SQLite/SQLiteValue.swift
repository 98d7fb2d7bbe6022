// SQLiteValue: one dynamically typed SQLite value, used where the type is only known at run time
// (the arguments and result of SQL functions implemented in Swift). The typed statement binds and
// column readers never go through it.
// Invariant: each case matches one SQLite storage class.

/// A value of any SQLite storage class.
///
/// ```swift
/// try connection.registerFunction(name: "twice", argumentCount: 1) { arguments in
///     .integer(arguments.int64(0) * 2)
/// }
/// ```
package enum SQLiteValue: Sendable, Hashable {
    /// NULL.
    ///
    /// ```swift
    /// if arguments.isNull(0) { return .null }
    /// ```
    case null
    /// A 64-bit signed integer.
    ///
    /// ```swift
    /// return .integer(1)
    /// ```
    case integer(Int64)
    /// A floating-point number (NaN becomes NULL in SQLite).
    ///
    /// ```swift
    /// return .real(3.5)
    /// ```
    case real(Double)
    /// Text.
    ///
    /// ```swift
    /// return .text("kg")
    /// ```
    case text(String)
    /// Bytes.
    ///
    /// ```swift
    /// return .blob([0xCA, 0xFE])
    /// ```
    case blob([UInt8])
}
