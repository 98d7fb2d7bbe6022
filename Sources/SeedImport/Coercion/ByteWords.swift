// A small set of words matched against UTF-8 bytes without allocating: null tokens and Boolean words.
// Invariant: when `foldsCase` is set, the stored words are already ASCII-lowercased, so a match
// lowercases only the input's ASCII letters (non-ASCII letters compare exactly).

/// Words compared with a value's bytes, exactly or ignoring ASCII case.
struct ByteWords: Sendable, Hashable {
    /// The words as given (for messages).
    let words: [String]
    private let folded: [[UInt8]]
    private let foldsCase: Bool

    /// A set of `words`; `foldsCase` ignores the case of ASCII letters.
    init(_ words: [String], foldsCase: Bool) {
        self.words = words
        self.foldsCase = foldsCase
        folded = words.map { word in foldsCase ? word.utf8.map(Self.lowercased) : Array(word.utf8) }
    }

    /// Whether there are no words.
    var isEmpty: Bool { folded.isEmpty }

    /// Whether `bytes` equals one of the words.
    func contains(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for word in folded where word.count == bytes.count {
            let equal = word.withUnsafeBufferPointer { word in
                for index in 0..<word.count {
                    let byte = foldsCase ? Self.lowercased(bytes[index]) : bytes[index]
                    if byte != word[index] { return false }
                }
                return true
            }
            if equal { return true }
        }
        return false
    }

    /// The words that are also in `other` (under this set's case rule).
    func shared(with other: ByteWords) -> [String] {
        words.enumerated().filter { other.folded.contains(folded[$0.offset]) }.map(\.element)
    }

    /// `byte` with an ASCII capital letter lowercased.
    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
    }
}
