// UTF8Validation: finds the first ill-formed UTF-8 sequence in a byte buffer (Unicode §3.9,
// table 3-7: no overlongs, no surrogates, nothing above U+10FFFF). ASCII runs are skipped
// eight bytes at a time.

enum UTF8Validation {
    /// The index of the first byte of the first ill-formed sequence, or `nil` if all is valid.
    static func firstInvalidIndex(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var index = 0
        while index < count {
            if index + 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 == 0 {
                    index += 8
                    continue
                }
            }
            let lead = base[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            guard let length = sequenceLength(base + index, available: count - index) else {
                return index
            }
            index += length
        }
        return nil
    }

    /// Whether every byte is ASCII or part of a well-formed sequence.
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        firstInvalidIndex(in: bytes) == nil
    }

    /// The length of the well-formed multi-byte sequence at `start`, or `nil`.
    private static func sequenceLength(_ start: UnsafePointer<UInt8>, available: Int) -> Int? {
        let lead = start[0]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return nil
        }
        guard available >= length else { return nil }
        guard start[1] >= low, start[1] <= high else { return nil }
        for offset in 2..<length where start[offset] & 0xC0 != 0x80 { return nil }
        return length
    }
}
