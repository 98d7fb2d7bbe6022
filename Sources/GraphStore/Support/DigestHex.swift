// Lower-case hex text of a swift-crypto digest: the form SeedKit writes model hashes, plan
// fingerprints and source checksums in (store metadata, run journals, seed metadata).
import Crypto

extension Digest {
    /// The digest as lower-case hex digits (64 for SHA-256).
    ///
    /// ```swift
    /// SHA256.hash(data: Array("abc".utf8)).hex
    /// // ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
    /// ```
    package var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(Self.byteCount * 2)
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
