// How attribute values are written to and read from SQLite columns (docs/StoreFormat.md):
// integers and Booleans → INTEGER; Double/Float → REAL; Decimal → TEXT (exact); String → TEXT;
// Date → REAL seconds since 1970-01-01T00:00:00Z; Binary/Transformable → BLOB; UUID → BLOB(16);
// URI → TEXT. Invariant: `read(column:type:)` returns exactly what `bind(_:at:)` stored.
import Foundation

extension SQLiteStatement {
    /// Binds an attribute value (nil binds NULL) to the 1-based parameter `index`.
    public func bind(_ value: AttributeValue?, at index: Int32) {
        guard let value else {
            bindNull(at: index)
            return
        }
        switch value {
        case .integer(let integer): bind(integer, at: index)
        case .boolean(let bool): bind(Int64(bool ? 1 : 0), at: index)
        case .double(let double): bind(double, at: index)
        case .decimal(let decimal): bind(text: decimal.description, at: index)
        case .string(let string): bind(text: string, at: index)
        case .date(let date): bind(date.timeIntervalSince1970, at: index)
        case .binary(let data): bind(blob: data, at: index)
        case .uuid(let uuid): withUnsafeBytes(of: uuid.uuid) { bind(blob: $0, at: index) }
        case .uri(let url): bind(text: url.absoluteString, at: index)
        }
    }

    /// Whether the 0-based result `column` holds exactly `value` (nil: NULL) as an attribute of
    /// `type` stores it. True only when they are certainly equal: numbers and dates compared as
    /// stored, text byte for byte (no `String` is built), anything else decoded and compared.
    /// Text that differs only in Unicode normalization counts as different.
    ///
    /// ```swift
    /// if statement.holds(.string("Rye bread"), at: 3, type: .string) { … }
    /// ```
    public func holds(_ value: AttributeValue?, at column: Int32, type: AttributeType) -> Bool {
        let stored = columnType(column)
        guard let value else { return stored == .null }
        switch (value, stored) {
        case (.integer(let integer), .integer):
            return int64(column) == integer
        case (.boolean(let bool), .integer):
            return int64(column) == (bool ? 1 : 0)
        case (.double(let double), .real), (.double(let double), .integer):
            return self.double(column) == double
        case (.date(let date), .real), (.date(let date), .integer):
            return double(column) == date.timeIntervalSince1970
        case (.string(var string), .text):
            return withText(column) { stored in
                string.withUTF8 { wanted in
                    guard stored.count == wanted.count else { return false }
                    guard let storedBase = stored.baseAddress, let wantedBase = wanted.baseAddress else { return true }
                    return memcmp(storedBase, wantedBase, wanted.count) == 0
                }
            }
        case (.integer, _), (.boolean, _), (.double, _), (.date, _), (.string, _), (_, .null):
            return false
        default:
            return attributeValue(at: column, type: type) == value
        }
    }

    /// The value in the 0-based result `column`, read as an attribute of `type`; nil for NULL.
    ///
    /// A stored value of the wrong storage class (written by another tool) is converted the way
    /// SQLite would (text to number and so on) rather than trapping.
    public func attributeValue(at column: Int32, type: AttributeType) -> AttributeValue? {
        if isNull(column) { return nil }
        switch type {
        case .integer16, .integer32, .integer64: return .integer(int64(column))
        case .boolean: return .boolean(int64(column) != 0)
        case .double, .float: return .double(double(column))
        case .decimal:
            let text = string(column)
            return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")).map(AttributeValue.decimal)
                ?? .decimal(Decimal(double(column)))
        case .string: return .string(string(column))
        case .date: return .date(Date(timeIntervalSince1970: double(column)))
        case .binary, .transformable: return .binary(data(column))
        case .uuid:
            let bytes = blob(column)
            guard bytes.count == 16 else { return UUID(uuidString: string(column)).map(AttributeValue.uuid) }
            let uuid = UUID(
                uuid: (
                    bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                    bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
                ))
            return .uuid(uuid)
        case .uri: return URL(string: string(column)).map(AttributeValue.uri)
        }
    }
}
