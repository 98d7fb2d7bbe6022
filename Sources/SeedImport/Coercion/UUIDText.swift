// UUIDs in their canonical text form, parsed from UTF-8 bytes without building a String.
// Invariant: only `8-4-4-4-12` hexadecimal digits (any case) are accepted — no braces, no URN
// prefix, no missing hyphens — so every accepted text names exactly one UUID.
import Foundation

/// The canonical text form of a UUID.
enum UUIDText {
    /// The UUID written in `bytes` as `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`.
    static func uuid(from bytes: UnsafeBufferPointer<UInt8>) throws(CoercionProblem) -> UUID {
        guard bytes.count == 36 else { throw .syntax }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let isValid = withUnsafeMutableBytes(of: &uuid) { output in
            var index = 0
            for position in 0..<16 {
                if index == 8 || index == 13 || index == 18 || index == 23 {
                    guard bytes[index] == UInt8(ascii: "-") else { return false }
                    index += 1
                }
                guard let high = BinaryEncoding.hexValue(bytes[index]),
                    let low = BinaryEncoding.hexValue(bytes[index + 1])
                else { return false }
                output[position] = high << 4 | low
                index += 2
            }
            return true
        }
        guard isValid else { throw .syntax }
        return UUID(uuid: uuid)
    }
}
