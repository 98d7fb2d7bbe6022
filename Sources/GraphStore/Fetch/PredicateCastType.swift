// The typed constants of the format language: `CAST(value, "type")`, which the description uses
// for values that have no literal (dates, decimals, UUIDs, URLs, data, object IDs), so that
// parsing a predicate's description gives the same predicate back.
import Foundation

/// The types `CAST(value, "type")` accepts, named as NSPredicate names them.
enum CastType: String {
    /// A date from seconds since 2001-01-01T00:00:00Z (NSPredicate's spelling).
    case date = "NSDate"
    /// An exact decimal from its text.
    case decimal = "NSDecimalNumber"
    /// A UUID from its text.
    case uuid = "NSUUID"
    /// A URL from its text.
    case url = "NSURL"
    /// Bytes from their base64 text.
    case data = "NSData"
    /// An object ID from its URI representation.
    case objectID = "NSManagedObjectID"

    /// The constant `token` stands for as this type, or nil when it does not convert.
    func constant(from token: PredicateToken.Kind) -> PredicateConstant? {
        switch (self, token) {
        case (.date, .integer(let seconds)): .value(.date(Date(timeIntervalSinceReferenceDate: Double(seconds))))
        case (.date, .real(let seconds)): .value(.date(Date(timeIntervalSinceReferenceDate: seconds)))
        case (.decimal, .string(let text)):
            Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")).map { .value(.decimal($0)) }
        case (.uuid, .string(let text)): UUID(uuidString: text).map { .value(.uuid($0)) }
        case (.url, .string(let text)): URL(string: text).map { .value(.uri($0)) }
        case (.data, .string(let text)): Data(base64Encoded: text).map { .value(.binary($0)) }
        case (.objectID, .string(let text)): ObjectID(uriRepresentation: text).map { .object($0) }
        default: nil
        }
    }
}
