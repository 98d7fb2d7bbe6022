// SHA256Hasher against the FIPS 180-4 / NIST example vectors, incremental updates split at every
// block boundary, and the sequence, string and raw-buffer entry points agreeing.
import Testing

@testable import GraphStore

@Suite("SHA256Hasher")
struct SHA256HasherTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ])
    func fipsVectors(message: String, expected: String) {
        #expect(SHA256Hasher.hexDigest(of: Array(message.utf8)) == expected)
        var hasher = SHA256Hasher()
        hasher.update(string: message)
        #expect(hasher.finalizeHex() == expected)
    }

    @Test func oneMillionA() {
        let expected = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        let million = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA256Hasher.hexDigest(of: million) == expected)
        var hasher = SHA256Hasher()
        var offset = 0
        var chunk = 1
        while offset < million.count {  // uneven chunk sizes cross every kind of block boundary
            let end = min(million.count, offset + chunk)
            million[offset..<end].withUnsafeBytes { hasher.update($0) }
            offset = end
            chunk = chunk % 200 + 7
        }
        #expect(hasher.finalizeHex() == expected)
    }

    @Test func incrementalMatchesOneShotAtEveryLength() {
        let message = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        for length in 0...message.count {
            let whole = SHA256Hasher.digest(of: message[0..<length])
            for split in Set([0, length / 3, length / 2, length]) {
                var hasher = SHA256Hasher()
                message[0..<split].withUnsafeBytes { hasher.update($0) }
                hasher.update(message[split..<length])
                #expect(hasher.finalize() == whole)
            }
        }
    }

    @Test func nonContiguousSequencesAndBuffersAgree() {
        let text = "The quick brown fox jumps over the lazy dog"
        let expected = "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592"
        #expect(SHA256Hasher.hexDigest(of: text.utf8.lazy.map { $0 }) == expected)
        #expect(Array(text.utf8).withUnsafeBytes { SHA256Hasher.hexDigest(of: $0) } == expected)
        var hasher = SHA256Hasher()
        hasher.update(string: "The quick brown fox ")
        let partial = hasher.finalizeHex()  // reading a digest does not end the hasher
        hasher.update(string: "jumps over the lazy dog")
        #expect(hasher.finalizeHex() == expected)
        #expect(partial == SHA256Hasher.hexDigest(of: Array("The quick brown fox ".utf8)))
        #expect(SHA256Hasher.digest(of: [UInt8]()).count == 32)
    }
}
