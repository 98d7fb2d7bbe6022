// SQLiteFunctionArguments: zero-copy, typed access to the arguments of a SQL function implemented
// in Swift (see SQLiteConnection.registerFunction).
// Invariants: it wraps SQLite's `sqlite3_value*` array for the duration of one call only, so it must
// not be stored or escape the function's body; indexes are 0-based and checked against `count`.
import CSQLite

/// The arguments of one call of a SQL function registered with
/// ``SQLiteConnection/registerFunction(name:argumentCount:deterministic:callers:_:)``.
///
/// Valid only during the call; read arguments with the typed accessors (no allocation) or as
/// ``SQLiteValue``s through the subscript.
///
/// ```swift
/// try connection.registerFunction(name: "starts_with", argumentCount: 2) { arguments in
///     let prefix = arguments.string(1)
///     return .integer(arguments.string(0).hasPrefix(prefix) ? 1 : 0)
/// }
/// ```
package struct SQLiteFunctionArguments {
    /// SQLite's argument array.
    private let values: UnsafeMutablePointer<OpaquePointer?>?

    /// The number of arguments in this call.
    ///
    /// ```swift
    /// guard arguments.count >= 1 else { return .null }
    /// ```
    package let count: Int

    init(count: Int32, values: UnsafeMutablePointer<OpaquePointer?>?) {
        self.count = values == nil ? 0 : Int(count)
        self.values = values
    }

    /// The storage class of argument `index`.
    ///
    /// ```swift
    /// if arguments.type(0) == .text { return .text(arguments.string(0).uppercased()) }
    /// ```
    package func type(_ index: Int) -> SQLiteColumnType {
        SQLiteColumnType(code: sqlite3_value_type(value(index)))
    }

    /// Whether argument `index` is NULL.
    ///
    /// ```swift
    /// if arguments.isNull(0) { return .null }
    /// ```
    package func isNull(_ index: Int) -> Bool {
        sqlite3_value_type(value(index)) == SQLITE_NULL
    }

    /// Argument `index` as a 64-bit integer (0 for NULL).
    ///
    /// ```swift
    /// return .integer(arguments.int64(0) * 2)
    /// ```
    package func int64(_ index: Int) -> Int64 {
        sqlite3_value_int64(value(index))
    }

    /// Argument `index` as a floating-point number (0 for NULL).
    ///
    /// ```swift
    /// return .real(arguments.double(0).rounded())
    /// ```
    package func double(_ index: Int) -> Double {
        sqlite3_value_double(value(index))
    }

    /// Argument `index` as a String from its UTF-8 bytes (empty for NULL).
    ///
    /// ```swift
    /// let pattern = arguments.string(0)
    /// ```
    package func string(_ index: Int) -> String {
        withText(index) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the UTF-8 bytes of argument `index`, without copying (empty for NULL).
    ///
    /// ```swift
    /// let length = arguments.withText(0) { $0.count }
    /// ```
    package func withText<R>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let argument = value(index)
        guard let base = sqlite3_value_text(argument) else {
            return try body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        return try body(UnsafeRawBufferPointer(start: base, count: Int(sqlite3_value_bytes(argument))))
    }

    /// Calls `body` with the bytes of argument `index` read as a blob, without copying (empty for
    /// NULL).
    ///
    /// ```swift
    /// let digest = arguments.withBlob(0) { Data(SHA256.hash(bufferPointer: $0)) }
    /// ```
    package func withBlob<R>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let argument = value(index)
        guard let base = sqlite3_value_blob(argument) else {
            return try body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        return try body(UnsafeRawBufferPointer(start: base, count: Int(sqlite3_value_bytes(argument))))
    }

    /// Argument `index` as a value of whatever storage class it has.
    ///
    /// ```swift
    /// if case .integer(let value) = arguments[0] { return .integer(value + 1) }
    /// ```
    package subscript(index: Int) -> SQLiteValue {
        switch type(index) {
        case .integer: .integer(int64(index))
        case .real: .real(double(index))
        case .text: .text(string(index))
        case .blob: .blob(withBlob(index) { [UInt8]($0) })
        case .null: .null
        }
    }

    /// The `sqlite3_value*` of argument `index`.
    private func value(_ index: Int) -> OpaquePointer? {
        precondition(
            index >= 0 && index < count, "SQL function argument \(index) out of range 0..<\(count)")
        return values?[index]
    }
}
