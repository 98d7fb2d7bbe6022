// SHA256Hasher: a pure-Swift SHA-256 (FIPS 180-4) for model version hashes and source-file
// checksums in seed metadata, with no dependency on Foundation or a crypto library.
// Invariants: whole 64-byte blocks are compressed straight from the caller's memory through raw
// pointers (no per-byte appends, no allocation while hashing); only a trailing partial block is
// copied into the fixed 64-byte `pending` buffer; `finalize()` does not change the hasher, so a
// running checksum can be read and then extended.

/// Computes SHA-256 digests, incrementally or in one call.
///
/// ```swift
/// var hasher = SHA256Hasher()
/// hasher.update(string: "abc")
/// print(hasher.finalizeHex())   // ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
///
/// let hex = SHA256Hasher.hexDigest(of: Array("abc".utf8))   // the same
/// ```
public struct SHA256Hasher: Sendable {
    /// The eight 32-bit chaining values H0…H7.
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab,
        0x5be0_cd19
    )
    /// Bytes of an incomplete block, waiting for more input (64 bytes of storage).
    private var pending: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (
        0, 0, 0, 0, 0, 0, 0, 0
    )
    /// How many bytes of `pending` are in use (0..<64).
    private var pendingCount = 0
    /// The total message length so far, in bytes.
    private var length: UInt64 = 0

    /// A hasher with no input yet.
    ///
    /// ```swift
    /// var hasher = SHA256Hasher()
    /// ```
    public init() {}

    /// Adds the bytes in `bytes` to the message.
    ///
    /// ```swift
    /// var hasher = SHA256Hasher()
    /// while let chunk = try file.read(upToCount: 1 << 20) {   // Data chunks from a FileHandle
    ///     chunk.withUnsafeBytes { hasher.update($0) }
    /// }
    /// ```
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        length &+= UInt64(bytes.count)
        var offset = 0
        if pendingCount > 0 {
            let taken = min(64 - pendingCount, bytes.count)
            let start = pendingCount
            withUnsafeMutableBytes(of: &pending) { buffer in
                buffer.baseAddress.unsafelyUnwrapped.advanced(by: start).copyMemory(
                    from: base, byteCount: taken)
            }
            pendingCount += taken
            offset = taken
            guard pendingCount == 64 else { return }
            let block = pending
            withUnsafeBytes(of: block) {
                Self.compress(&state, blocks: $0.baseAddress.unsafelyUnwrapped, count: 1)
            }
            pendingCount = 0
        }
        let wholeBlocks = (bytes.count - offset) / 64
        if wholeBlocks > 0 {
            Self.compress(&state, blocks: base + offset, count: wholeBlocks)
            offset += wholeBlocks * 64
        }
        let rest = bytes.count - offset
        if rest > 0 {
            withUnsafeMutableBytes(of: &pending) { buffer in
                buffer.baseAddress.unsafelyUnwrapped.copyMemory(from: base + offset, byteCount: rest)
            }
            pendingCount = rest
        }
    }

    /// Adds a sequence of bytes to the message (arrays and other contiguous collections are
    /// hashed in place; other sequences through a small buffer).
    ///
    /// ```swift
    /// hasher.update([0x61, 0x62, 0x63])
    /// ```
    public mutating func update(_ bytes: some Sequence<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        guard done == nil else { return }
        var chunk: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (
            0, 0, 0, 0, 0, 0, 0, 0
        )
        var count = 0
        for byte in bytes {
            withUnsafeMutableBytes(of: &chunk) { $0[count] = byte }
            count += 1
            if count == 64 {
                withUnsafeBytes(of: chunk) { update($0) }
                count = 0
            }
        }
        withUnsafeBytes(of: chunk) { update(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    }

    /// Adds the UTF-8 bytes of `string` to the message.
    ///
    /// ```swift
    /// hasher.update(string: "entity Item\n")
    /// ```
    public mutating func update(string: String) {
        var string = string
        string.withUTF8 { update(UnsafeRawBufferPointer($0)) }
    }

    /// The 32-byte digest of the message so far. The hasher is unchanged and can take more input.
    ///
    /// ```swift
    /// let digest: [UInt8] = hasher.finalize()
    /// ```
    public func finalize() -> [UInt8] {
        var copy = self
        let bitLength = length &* 8
        // Padding: 0x80, zeros up to 56 mod 64, then the length in bits, big-endian.
        var tail:
            (
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                UInt64, UInt64,
                UInt64, UInt64, UInt64
            ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let padding = (pendingCount < 56 ? 56 : 120) - pendingCount
        withUnsafeMutableBytes(of: &tail) { buffer in
            buffer[0] = 0x80
            withUnsafeBytes(of: bitLength.bigEndian) { buffer[padding..<padding + 8].copyBytes(from: $0) }
        }
        withUnsafeBytes(of: tail) { copy.update(UnsafeRawBufferPointer(rebasing: $0[0..<padding + 8])) }
        let words = [
            copy.state.0, copy.state.1, copy.state.2, copy.state.3,
            copy.state.4, copy.state.5, copy.state.6, copy.state.7,
        ]
        var digest: [UInt8] = []
        digest.reserveCapacity(32)
        for word in words {
            digest.append(UInt8(truncatingIfNeeded: word >> 24))
            digest.append(UInt8(truncatingIfNeeded: word >> 16))
            digest.append(UInt8(truncatingIfNeeded: word >> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        return digest
    }

    /// The digest of the message so far as 64 lower-case hex digits; the hasher is unchanged.
    ///
    /// ```swift
    /// metadata["seed.sources"] = hasher.finalizeHex()
    /// ```
    public func finalizeHex() -> String {
        Self.hex(finalize())
    }

    /// The 32-byte SHA-256 digest of `bytes`.
    ///
    /// ```swift
    /// let digest = SHA256Hasher.digest(of: Array("abc".utf8))
    /// ```
    public static func digest(of bytes: some Sequence<UInt8>) -> [UInt8] {
        var hasher = SHA256Hasher()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The SHA-256 digest of `bytes` as 64 lower-case hex digits.
    ///
    /// ```swift
    /// SHA256Hasher.hexDigest(of: Array("".utf8))
    /// // e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
    /// ```
    public static func hexDigest(of bytes: some Sequence<UInt8>) -> String {
        hex(digest(of: bytes))
    }

    /// The SHA-256 digest of the bytes in `buffer` as 64 lower-case hex digits.
    ///
    /// ```swift
    /// let hex = data.withUnsafeBytes { SHA256Hasher.hexDigest(of: $0) }
    /// ```
    public static func hexDigest(of buffer: UnsafeRawBufferPointer) -> String {
        var hasher = SHA256Hasher()
        hasher.update(buffer)
        return hasher.finalizeHex()
    }

    // MARK: - Private

    /// Lower-case hex digits of `bytes`.
    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The round constants K0…K63 (FIPS 180-4 §4.2.2).
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4,
        0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7,
        0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc,
        0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351,
        0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e,
        0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585,
        0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f,
        0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7,
        0xc671_78f2,
    ]

    /// Runs the compression function over `count` consecutive 64-byte blocks at `blocks`.
    private static func compress(
        _ state: inout (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32),
        blocks: UnsafeRawPointer, count: Int
    ) {
        roundConstants.withUnsafeBufferPointer { constants in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
                let k = constants.baseAddress.unsafelyUnwrapped
                let w = schedule.baseAddress.unsafelyUnwrapped
                var (h0, h1, h2, h3, h4, h5, h6, h7) = state
                var block = blocks
                for _ in 0..<count {
                    for t in 0..<16 {
                        w[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: t &* 4, as: UInt32.self))
                    }
                    for t in 16..<64 {
                        let x = w[t &- 15]
                        let y = w[t &- 2]
                        let s0 = rotate(x, 7) ^ rotate(x, 18) ^ (x &>> 3)
                        let s1 = rotate(y, 17) ^ rotate(y, 19) ^ (y &>> 10)
                        w[t] = w[t &- 16] &+ s0 &+ w[t &- 7] &+ s1
                    }
                    var a = h0
                    var b = h1
                    var c = h2
                    var d = h3
                    var e = h4
                    var f = h5
                    var g = h6
                    var h = h7
                    for t in 0..<64 {
                        let sum1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
                        let choice = (e & f) ^ (~e & g)
                        let t1 = h &+ sum1 &+ choice &+ k[t] &+ w[t]
                        let sum0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
                        let majority = (a & b) ^ (a & c) ^ (b & c)
                        let t2 = sum0 &+ majority
                        h = g
                        g = f
                        f = e
                        e = d &+ t1
                        d = c
                        c = b
                        b = a
                        a = t1 &+ t2
                    }
                    h0 &+= a
                    h1 &+= b
                    h2 &+= c
                    h3 &+= d
                    h4 &+= e
                    h5 &+= f
                    h6 &+= g
                    h7 &+= h
                    block += 64
                }
                state = (h0, h1, h2, h3, h4, h5, h6, h7)
            }
        }
    }

    /// `value` rotated right by `amount` bits.
    @inline(__always)
    private static func rotate(_ value: UInt32, _ amount: UInt32) -> UInt32 {
        (value &>> amount) | (value &<< (32 &- amount))
    }
}
