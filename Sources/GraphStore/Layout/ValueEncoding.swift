// How a store layout writes attribute values to SQLite columns and reads them back
// (docs/StoreFormat.md): integers and Booleans → INTEGER; Double/Float → REAL; String and URI →
// TEXT; Binary/Transformable → BLOB; UUID → BLOB(16); Date → REAL seconds since the layout's
// epoch (1970-01-01 for SeedKit's layout, 2001-01-01 for Core Data's); Decimal → exact TEXT
// (SeedKit) or REAL (Core Data). Binary values of attributes that allow external storage are
// kept as they are (SeedKit) or marked (Core Data: `0x01` + the bytes; `0x02` + the name of a
// file in the store's `.<name>_SUPPORT/_EXTERNAL_DATA/` folder, read when met). The same facts
// as SQL expressions let a set-based copy between two layouts convert values inside SQLite.
// Invariant: reading a column returns exactly what binding the value stored, for every encoding.
import Foundation

/// The value encoding of a store layout.
///
/// ```swift
/// statement.bind(.date(now), at: 3, encoding: store.layout.values)
/// let value = statement.attributeValue(at: 0, type: .date, encoding: store.layout.values)
/// ```
package struct ValueEncoding: Sendable, Hashable {
    /// Where stored dates count their seconds from.
    package enum DateEpoch: Sendable, Hashable {
        /// 1970-01-01T00:00:00Z (Unix time).
        case unix
        /// 2001-01-01T00:00:00Z (Foundation's reference date, Core Data's).
        case reference2001
    }

    /// How decimals are stored.
    package enum DecimalStorage: Sendable, Hashable {
        /// Their exact text (`"12.50"` reads back as 12.5 exactly).
        case exactText
        /// A REAL (the nearest double).
        case real
    }

    /// The epoch of stored dates.
    package let dates: DateEpoch
    /// How decimals are stored.
    package let decimals: DecimalStorage
    /// Whether binary values carry Core Data's external-storage marker (`0x01` + the bytes
    /// inline, or `0x02` + the name of a file in ``externalDataFolder``). Layouts set it for
    /// the binary attributes that allow external storage (StoreLayout.encoding(of:)).
    package let marksBinary: Bool
    /// The folder holding the files that `0x02`-marked values name (Core Data's
    /// `.<store name>_SUPPORT/_EXTERNAL_DATA`), when the store is a file.
    package let externalDataFolder: String?

    /// An encoding with these choices (UUIDs are always 16-byte blobs).
    package init(
        dates: DateEpoch, decimals: DecimalStorage, marksBinary: Bool = false, externalDataFolder: String? = nil
    ) {
        self.dates = dates
        self.decimals = decimals
        self.marksBinary = marksBinary
        self.externalDataFolder = externalDataFolder
    }

    /// This encoding for the binary values of attributes that allow external storage: marked,
    /// with `folder` holding the files that values stored outside the store name.
    package func markingBinary(folder: String?) -> ValueEncoding {
        ValueEncoding(dates: dates, decimals: decimals, marksBinary: true, externalDataFolder: folder)
    }

    /// Seconds between 1970-01-01 and 2001-01-01.
    private static let referenceOffset: Double = 978_307_200

    /// The number stored for `date`.
    package func seconds(of date: Date) -> Double {
        switch dates {
        case .unix: date.timeIntervalSince1970
        case .reference2001: date.timeIntervalSinceReferenceDate
        }
    }

    /// The date a stored number stands for.
    package func date(fromSeconds seconds: Double) -> Date {
        switch dates {
        case .unix: Date(timeIntervalSince1970: seconds)
        case .reference2001: Date(timeIntervalSinceReferenceDate: seconds)
        }
    }

    /// SQL giving, for `expression` — a value of `type` as `source` stores it — the value this
    /// encoding stores (NULL stays NULL); `expression` itself when both store it alike.
    ///
    /// ```swift
    /// seedKit.sqlExpression(converting: "s.\"added\"", type: .date, from: coreData)
    /// // (s."added" + 978307200)
    /// ```
    package func sqlExpression(converting expression: String, type: AttributeType, from source: ValueEncoding)
        -> String
    {
        switch type {
        case .date where dates != source.dates:
            return dates == .unix
                ? "(\(expression) + \(Int(Self.referenceOffset)))" : "(\(expression) - \(Int(Self.referenceOffset)))"
        case .decimal where decimals != source.decimals:
            return decimals == .real ? "CAST(\(expression) AS REAL)" : "CAST(\(expression) AS TEXT)"
        case .binary where marksBinary || source.marksBinary:
            guard marksBinary != source.marksBinary || source.externalDataFolder != nil else { return expression }
            return ExternalBinary.sqlExpression(converting: expression, from: source, to: self)
        default:
            return expression
        }
    }
}

extension SQLiteStatement {
    /// Binds an attribute value (nil binds NULL) to the 1-based parameter `index`, as `encoding` stores it.
    package func bind(_ value: AttributeValue?, at index: Int32, encoding: ValueEncoding) {
        guard let value else {
            bindNull(at: index)
            return
        }
        switch value {
        case .integer(let integer): bind(integer, at: index)
        case .boolean(let bool): bind(Int64(bool ? 1 : 0), at: index)
        case .double(let double): bind(double, at: index)
        case .decimal(let decimal):
            switch encoding.decimals {
            case .exactText: bind(text: decimal.description, at: index)
            case .real: bind(NSDecimalNumber(decimal: decimal).doubleValue, at: index)
            }
        case .string(let string): bind(text: string, at: index)
        case .date(let date): bind(encoding.seconds(of: date), at: index)
        case .binary(let data) where encoding.marksBinary: bind(blob: ExternalBinary.inline(data), at: index)
        case .binary(let data): bind(blob: data, at: index)
        case .uuid(let uuid): withUnsafeBytes(of: uuid.uuid) { bind(blob: $0, at: index) }
        case .uri(let url): bind(text: url.absoluteString, at: index)
        }
    }

    /// Whether the 0-based result `column` holds exactly `value` (nil: NULL) as `encoding`
    /// stores an attribute of `type`. True only when they are certainly equal: numbers and dates
    /// compared as stored, text byte for byte (no `String` is built), anything else decoded and
    /// compared. Text that differs only in Unicode normalization counts as different.
    ///
    /// ```swift
    /// if statement.holds(.string("Rye bread"), at: 3, type: .string, encoding: layout.values) { … }
    /// ```
    package func holds(_ value: AttributeValue?, at column: Int32, type: AttributeType, encoding: ValueEncoding)
        -> Bool
    {
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
            return double(column) == encoding.seconds(of: date)
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
            return attributeValue(at: column, type: type, encoding: encoding) == value
        }
    }

    /// The value in the 0-based result `column`, read as `encoding` stores an attribute of
    /// `type`; nil for NULL.
    ///
    /// A stored value of the wrong storage class (written by another tool) is converted the way
    /// SQLite would (text to number and so on) rather than trapping.
    package func attributeValue(at column: Int32, type: AttributeType, encoding: ValueEncoding) -> AttributeValue? {
        if isNull(column) { return nil }
        switch type {
        case .integer16, .integer32, .integer64: return .integer(int64(column))
        case .boolean: return .boolean(int64(column) != 0)
        case .double, .float: return .double(double(column))
        case .decimal:
            // Text as written (SQLite gives a REAL as its shortest text): exact in either encoding.
            let text = string(column)
            return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")).map(AttributeValue.decimal)
                ?? .decimal(Decimal(double(column)))
        case .string: return .string(string(column))
        case .date: return .date(encoding.date(fromSeconds: double(column)))
        case .binary where encoding.marksBinary:
            return ExternalBinary.value(of: data(column), folder: encoding.externalDataFolder).map(
                AttributeValue.binary)
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
