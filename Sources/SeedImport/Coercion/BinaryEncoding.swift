// How binary (and transformable) values are written as text: base64 or hex (`binaryEncoding:`).
// Invariants: decoding never allocates more than the output; ASCII white space anywhere in the
// text is ignored (line-wrapped base64 from XML or MIME decodes); anything else that is not of
// the alphabet is an error, never skipped.
import Foundation

/// A text encoding of bytes.
enum BinaryEncoding: String, Sendable {
    /// RFC 4648 base64, standard alphabet (`+` `/`); the `=` padding is optional.
    case base64
    /// Two hexadecimal digits per byte, any case.
    case hex

    /// The encoding named by a mapping's `binaryEncoding:` option (base64 when nil).
    init(_ name: String?) throws(CoercionSetupError) {
        guard let encoding = BinaryEncoding(rawValue: name ?? "base64") else {
            throw CoercionSetupError(
                "unknown binary encoding \(CoercionError.quoted(name ?? "")) (expected base64 or hex)")
        }
        self = encoding
    }

    /// The bytes `text` encodes.
    func decode(_ text: UnsafeBufferPointer<UInt8>) throws(CoercionProblem) -> Data {
        var data = Data(count: self == .hex ? text.count / 2 : text.count / 4 * 3 + 2)
        let written = data.withUnsafeMutableBytes { output in
            Result { () throws(CoercionProblem) in
                switch self {
                case .base64: try Self.decodeBase64(text, into: output)
                case .hex: try Self.decodeHex(text, into: output)
                }
            }
        }
        data.count = try written.get()
        return data
    }

    /// The value of a hexadecimal digit (any case), or nil.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        let digit = hexDigit(byte)
        return digit.isValid ? digit.value : nil
    }

    /// A hexadecimal digit's value and whether `byte` is one, computed without branches (random
    /// hex text would mispredict a digit-or-letter branch half the time).
    static func hexDigit(_ byte: UInt8) -> (value: UInt8, isValid: Bool) {
        let isDigit = byte &- UInt8(ascii: "0") < 10
        let isLetter = (byte | 0x20) &- UInt8(ascii: "a") < 6
        // '0'…'9' are 0x30…0x39, 'A'…'F' 0x41…0x46 and 'a'…'f' 0x61…0x66: the low nibble, plus 9 for letters.
        return ((byte & 0x0F) &+ 9 &* (byte >> 6), isDigit != isLetter)
    }

    /// Decodes hex digit pairs into `output`; returns the number of bytes written.
    private static func decodeHex(_ text: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableRawBufferPointer)
        throws(CoercionProblem) -> Int
    {
        var count = 0
        var high: UInt8?
        for byte in text where !WhiteSpace.isASCII(byte) {
            guard let value = hexValue(byte) else { throw .syntax }
            if let first = high {
                output[count] = first << 4 | value
                count += 1
                high = nil
            } else {
                high = value
            }
        }
        guard high == nil else { throw .invalid("odd number of hex digits") }
        return count
    }

    /// Decodes base64 into `output`; returns the number of bytes written.
    private static func decodeBase64(_ text: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableRawBufferPointer)
        throws(CoercionProblem) -> Int
    {
        var count = 0
        var bits: UInt32 = 0
        var sextets = 0
        var padding = 0
        for byte in text where !WhiteSpace.isASCII(byte) {
            if byte == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            guard padding == 0, let value = base64Value(byte) else { throw .syntax }
            bits = bits << 6 | UInt32(value)
            sextets += 1
            if sextets == 4 {
                output[count] = UInt8(truncatingIfNeeded: bits >> 16)
                output[count + 1] = UInt8(truncatingIfNeeded: bits >> 8)
                output[count + 2] = UInt8(truncatingIfNeeded: bits)
                count += 3
                bits = 0
                sextets = 0
            }
        }
        // A final group of 2 or 3 characters holds 1 or 2 bytes; padding, if any, completes it to 4.
        guard sextets != 1, padding == 0 || (sextets > 0 && sextets + padding == 4) else { throw .syntax }
        if sextets >= 2 {
            bits <<= 6 * UInt32(4 - sextets)
            output[count] = UInt8(truncatingIfNeeded: bits >> 16)
            count += 1
            if sextets == 3 {
                output[count] = UInt8(truncatingIfNeeded: bits >> 8)
                count += 1
            }
        }
        return count
    }

    /// The value of a base64 character, or nil.
    private static func base64Value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
