// UUIDs in their canonical text form, parsed from UTF-8 bytes without building a String.
// Invariant: only `8-4-4-4-12` hexadecimal digits (any case) are accepted — no braces, no URN
// prefix, no missing hyphens — so every accepted text names exactly one UUID.
import Foundation

/// The canonical text form of a UUID.
enum UUIDText {
    /// The UUID written in `bytes` as `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`.
    static func uuid(from bytes: UnsafeBufferPointer<UInt8>) throws(CoercionProblem) -> UUID {
        let hyphen = UInt8(ascii: "-")
        guard bytes.count == 36, bytes[8] == hyphen, bytes[13] == hyphen, bytes[18] == hyphen, bytes[23] == hyphen
        else { throw .syntax }
        // The first 16 digits (before index 19) are the high 8 bytes, the last 16 the low 8 bytes.
        var high: UInt64 = 0
        var low: UInt64 = 0
        var isValid = true
        for index in 0..<36 where index != 8 && index != 13 && index != 18 && index != 23 {
            let digit = BinaryEncoding.hexDigit(bytes[index])
            isValid = isValid && digit.isValid
            if index < 19 {
                high = high << 4 | UInt64(digit.value)
            } else {
                low = low << 4 | UInt64(digit.value)
            }
        }
        guard isValid else { throw .syntax }
        return withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) { UUID(uuid: $0.load(as: uuid_t.self)) }
    }
}
