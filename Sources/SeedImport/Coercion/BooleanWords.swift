// The words a Boolean attribute accepts, compiled once per mapping (`true:` / `false:` in a plan).
// Invariants: neither list is empty and no word means both true and false (case-insensitively).

/// The texts that mean true and false.
struct BooleanWords: Sendable, Hashable {
    /// The default true words: true, yes, 1, y, on.
    static let defaultTrue = ["true", "yes", "1", "y", "on"]
    /// The default false words: false, no, 0, n, off.
    static let defaultFalse = ["false", "no", "0", "n", "off"]

    let trueWords: ByteWords
    let falseWords: ByteWords

    /// The words of a mapping (the defaults for a list it leaves out).
    init(trueWords: [String]?, falseWords: [String]?) throws(CoercionSetupError) {
        self.trueWords = ByteWords(trueWords ?? Self.defaultTrue, foldsCase: true)
        self.falseWords = ByteWords(falseWords ?? Self.defaultFalse, foldsCase: true)
        if self.trueWords.isEmpty || self.falseWords.isEmpty {
            throw CoercionSetupError("the list of true words and the list of false words must not be empty")
        }
        let shared = self.trueWords.shared(with: self.falseWords)
        if !shared.isEmpty {
            throw CoercionSetupError(
                "\(shared.map(CoercionError.quoted).joined(separator: ", ")) cannot mean both true and false")
        }
    }

    /// Whether the empty text is one of the words.
    var acceptsEmpty: Bool { trueWords.words.contains("") || falseWords.words.contains("") }

    /// The Boolean `bytes` stand for; JSON `true` and `false` (`kind` `.bool`) are always accepted.
    func value(of bytes: UnsafeBufferPointer<UInt8>, isJSONBoolean: Bool) throws(CoercionProblem) -> Bool {
        if isJSONBoolean { return bytes.first == UInt8(ascii: "t") }
        if trueWords.contains(bytes) { return true }
        if falseWords.contains(bytes) { return false }
        throw .syntax
    }

    /// `a boolean (true, yes, 1, y, on / false, no, 0, n, off)`.
    var expectation: String {
        "a boolean (\(trueWords.words.joined(separator: ", ")) / \(falseWords.words.joined(separator: ", ")))"
    }
}
