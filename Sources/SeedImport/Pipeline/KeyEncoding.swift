// The canonical bytes of a key and their hash: how the run's key index stores keys and tells
// them apart, the same for a key read from a record (flat values) and one given as attribute
// values (the object path's `KeyValue`). Each part is a kind byte and its payload: 8 bytes for
// numbers, Booleans and dates (a date as `Date` keeps it; -0.0 as 0.0), a 4-byte length and the
// UTF-8 bytes for text, URIs and decimals (in their canonical description), the bytes of data
// and UUIDs.
// Invariant: two keys are equal as `KeyValue`s exactly when their canonical bytes are equal.
import Foundation
import GraphStore

/// Canonical key bytes and their hash.
enum KeyEncoding {
    private enum Tag: UInt8 {
        case integer = 1, double, boolean, date, text, decimal, binary, uuid, uri
    }

    /// Appends the canonical bytes of `value` (a key part of a batch whose arena is `text` and
    /// boxed values `boxed`) to `bytes`.
    static func append(_ value: FlatValue, text: [UInt8], boxed: [AttributeValue], to bytes: inout [UInt8]) {
        switch value.kind {
        case .text: appendText(text[value.textRange], to: &bytes)
        case .boxed: append(boxed[Int(value.bits)], to: &bytes)
        default: appendInline(value, to: &bytes)
        }
    }

    /// Appends the canonical bytes of `value` to `bytes`.
    static func append(_ value: AttributeValue, to bytes: inout [UInt8]) {
        if let flat = FlatValue.inline(value) {
            appendInline(flat, to: &bytes)
            return
        }
        switch value {
        case .string(let string): appendText(Array(string.utf8)[...], to: &bytes)
        case .decimal(let decimal): appendText(Array(decimal.description.utf8)[...], tag: .decimal, to: &bytes)
        case .binary(let data): appendText(Array(data)[...], tag: .binary, to: &bytes)
        case .uuid(let uuid): withUnsafeBytes(of: uuid.uuid) { appendText(Array($0)[...], tag: .uuid, to: &bytes) }
        case .uri(let url): appendText(Array(url.absoluteString.utf8)[...], tag: .uri, to: &bytes)
        case .integer, .double, .boolean, .date: break
        }
    }

    /// The canonical bytes of `key`.
    static func bytes(of key: KeyValue) -> [UInt8] {
        var bytes: [UInt8] = []
        for part in key.parts { append(part, to: &bytes) }
        return bytes
    }

    /// The hash of canonical key bytes (64 bits, every bit depending on every byte).
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var state: UInt64 = 0x243F_6A88_85A3_08D3 ^ UInt64(bytes.count)
        var offset = 0
        while offset + 8 <= bytes.count {
            state = mix(state ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count {
            tail |= UInt64(bytes[offset]) << shift
            shift += 8
            offset += 1
        }
        return mix(state ^ tail ^ 0x9E37_79B9_7F4A_7C15)
    }

    /// One multiply-xorshift round (SplitMix64's finaliser).
    @inline(__always)
    static func mix(_ value: UInt64) -> UInt64 {
        var x = value
        x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
        return x ^ (x >> 31)
    }

    /// A number, Boolean or date (a key part is never null: it would have no key).
    private static func appendInline(_ value: FlatValue, to bytes: inout [UInt8]) {
        switch value.kind {
        case .integer: append(.integer, value.bits, to: &bytes)
        case .double: append(.double, normalized(value.bits), to: &bytes)
        case .boolean: append(.boolean, value.bits, to: &bytes)
        case .date: append(.date, normalized(value.bits), to: &bytes)
        case .absent, .null, .text, .boxed, .constant: append(.text, 0, to: &bytes)
        }
    }

    private static func append(_ tag: Tag, _ payload: UInt64, to bytes: inout [UInt8]) {
        bytes.append(tag.rawValue)
        withUnsafeBytes(of: payload.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private static func appendText(_ text: ArraySlice<UInt8>, tag: Tag = .text, to bytes: inout [UInt8]) {
        bytes.append(tag.rawValue)
        withUnsafeBytes(of: UInt32(text.count).littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: text)
    }

    /// A Double's bits with -0.0 as 0.0 (they are equal values).
    private static func normalized(_ bits: UInt64) -> UInt64 {
        bits == (1 << 63) ? 0 : bits
    }
}
