// Splits a predicate format string into tokens.
// Invariants: the lexer reads Unicode scalars (so a quote next to a combining mark still ends a
// string) but offsets count Characters from the start of the format string; whitespace separates
// tokens and is never part of one; every token keeps the text it was written as, for messages.

/// One token of a predicate format string.
struct PredicateToken: Equatable {
    /// What the token is.
    enum Kind: Equatable {
        /// A key (a bare word that is not a keyword, or a `#`-escaped word).
        case identifier(String)
        /// A reserved word.
        case keyword(PredicateKeyword)
        /// A comparison operator written with symbols (`==`, `=<`, `<>`, …).
        case comparison(ComparisonOperator)
        /// A quoted string, escapes resolved.
        case string(String)
        /// An integer literal.
        case integer(Int64)
        /// A number with a fraction or exponent (or an integer too large for 64 bits).
        case real(Double)
        /// `$NAME`.
        case variable(String)
        /// `@count`, `@avg`, …: a collection-operator key (the text after `@`).
        case operatorKey(String)
        /// `%@`.
        case valueArgument
        /// `%K`.
        case keyPathArgument
        /// Punctuation: `( ) { } [ ] , .`
        case punctuation(Character)
        /// The end of the input.
        case end
    }

    let kind: Kind
    /// Where the token starts, in characters.
    let offset: Int
    /// The token as written.
    let text: String
}

/// Turns a format string into ``PredicateToken``s.
struct PredicateLexer {
    private let characters: [Unicode.Scalar]
    /// For each scalar (and the end), its offset in Characters.
    private let characterOffsets: [Int]
    private var position = 0

    init(_ format: String) {
        self.characters = Array(format.unicodeScalars)
        var offsets: [Int] = []
        offsets.reserveCapacity(characters.count + 1)
        for (offset, character) in format.enumerated() {
            offsets += repeatElement(offset, count: character.unicodeScalars.count)
        }
        offsets.append(format.count)
        self.characterOffsets = offsets
    }

    /// All tokens, ending with `.end`.
    mutating func tokenize() throws -> [PredicateToken] {
        var tokens: [PredicateToken] = []
        while true {
            let token = try next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private var current: Unicode.Scalar? { position < characters.count ? characters[position] : nil }

    private func peek(_ distance: Int = 1) -> Unicode.Scalar? {
        position + distance < characters.count ? characters[position + distance] : nil
    }

    /// An error at the scalar position `position`.
    private func error(_ message: String, at position: Int) -> PredicateSyntaxError {
        PredicateSyntaxError(message, at: characterOffsets[min(position, characters.count)])
    }

    private func text(_ range: Range<Int>) -> String {
        var text = ""
        text.unicodeScalars.append(contentsOf: characters[range])
        return text
    }

    private mutating func next() throws -> PredicateToken {
        while let character = current, character.properties.isWhitespace { position += 1 }
        let start = position
        guard let character = current else {
            return PredicateToken(kind: .end, offset: characterOffsets[start], text: "")
        }
        let kind: PredicateToken.Kind
        switch character {
        case "\"", "'":
            kind = .string(try string(quote: character))
        case "0"..."9":
            kind = try number()
        case "-" where peek()?.isASCIIDigit == true || (peek() == "." && peek(2)?.isASCIIDigit == true):
            kind = try number()
        case "." where peek()?.isASCIIDigit == true:
            kind = try number()
        case "$":
            position += 1
            let name = word()
            guard !name.isEmpty else { throw error("expected a variable name after '$'", at: start) }
            kind = .variable(name)
        case "#":
            position += 1
            let name = word()
            guard !name.isEmpty else { throw error("expected a key after '#'", at: start) }
            kind = .identifier(name)
        case "%":
            kind = try formatArgument(start: start)
        case "@":
            position += 1
            let name = word()
            guard !name.isEmpty else { throw error("expected a collection operator after '@'", at: start) }
            kind = .operatorKey(name)
        case _ where character.isWordStart:
            let name = word()
            kind = PredicateKeyword(word: name).map(PredicateToken.Kind.keyword) ?? .identifier(name)
        default:
            kind = try symbol(start: start)
        }
        return PredicateToken(kind: kind, offset: characterOffsets[start], text: text(start..<position))
    }

    /// Letters, digits and underscores from the current position.
    private mutating func word() -> String {
        let start = position
        while let character = current, character.isWordPart { position += 1 }
        return text(start..<position)
    }

    private mutating func formatArgument(start: Int) throws -> PredicateToken.Kind {
        position += 1
        switch current {
        case "@":
            position += 1
            return .valueArgument
        case "K":
            position += 1
            return .keyPathArgument
        default:
            throw error("expected '%@' or '%K'", at: start)
        }
    }

    private static let twoCharacterSymbols: [String: PredicateToken.Kind] = [
        "==": .comparison(.equalTo), "!=": .comparison(.notEqualTo), "<>": .comparison(.notEqualTo),
        "<=": .comparison(.lessThanOrEqualTo), "=<": .comparison(.lessThanOrEqualTo),
        ">=": .comparison(.greaterThanOrEqualTo), "=>": .comparison(.greaterThanOrEqualTo),
        "&&": .keyword(.and), "||": .keyword(.or),
    ]
    private static let oneCharacterSymbols: [Unicode.Scalar: PredicateToken.Kind] = [
        "=": .comparison(.equalTo), "<": .comparison(.lessThan), ">": .comparison(.greaterThan),
        "!": .keyword(.not),
    ]

    /// Operators and punctuation, longest match first.
    private mutating func symbol(start: Int) throws -> PredicateToken.Kind {
        if position + 1 < characters.count, let kind = Self.twoCharacterSymbols[text(position..<position + 2)] {
            position += 2
            return kind
        }
        guard let character = current else { throw error("unexpected end", at: start) }
        position += 1
        if let kind = Self.oneCharacterSymbols[character] { return kind }
        if "(){}[],.".unicodeScalars.contains(character) { return .punctuation(Character(character)) }
        throw error("unexpected character '\(character)'", at: start)
    }

    private mutating func number() throws -> PredicateToken.Kind {
        let start = position
        if current == "-" { position += 1 }
        if current == "0", let prefix = peek(), "xXoObB".unicodeScalars.contains(prefix) {
            return try radixInteger(start: start)
        }
        var isReal = false
        digits()
        if current == ".", peek()?.isASCIIDigit == true {
            isReal = true
            position += 1
            digits()
        }
        if let e = current, e == "e" || e == "E" {
            let signed = peek() == "+" || peek() == "-"
            if (signed ? peek(2) : peek())?.isASCIIDigit == true {
                isReal = true
                position += signed ? 2 : 1
                digits()
            }
        }
        if let character = current, character.isWordStart {
            throw error("unexpected '\(character)' in a number", at: position)
        }
        let text = text(start..<position)
        if !isReal, let integer = Int64(text) { return .integer(integer) }
        guard let real = Double(text) else { throw error("invalid number '\(text)'", at: start) }
        return .real(real)
    }

    private mutating func digits() {
        while current?.isASCIIDigit == true { position += 1 }
    }

    /// `0x1F`, `0o17`, `0b101`, optionally negative.
    private mutating func radixInteger(start: Int) throws -> PredicateToken.Kind {
        let negative = current == "-"
        if negative { position += 1 }
        position += 1
        let radix: Int
        switch current {
        case "x", "X": radix = 16
        case "o", "O": radix = 8
        default: radix = 2
        }
        position += 1
        let digitsStart = position
        while let character = current, character.isWordPart { position += 1 }
        guard let magnitude = Int64(text(digitsStart..<position), radix: radix) else {
            throw error("invalid number '\(text(start..<position))'", at: start)
        }
        return .integer(negative ? -magnitude : magnitude)
    }

    /// A quoted string; the quote is the current character.
    private mutating func string(quote: Unicode.Scalar) throws -> String {
        let start = position
        position += 1
        var result = ""
        while let character = current {
            position += 1
            if character == quote { return result }
            result.unicodeScalars.append(character == "\\" ? try escape() : character)
        }
        throw error("unterminated string", at: start)
    }

    /// The character an escape stands for; the backslash has been read.
    private mutating func escape() throws -> Unicode.Scalar {
        let start = position - 1
        guard let character = current else { throw error("unterminated string", at: start) }
        position += 1
        switch character {
        case "n": return "\n"
        case "t": return "\t"
        case "r": return "\r"
        case "0": return "\0"
        case "\\", "\"", "'": return character
        case "u":
            let hex = text(position..<min(position + 4, characters.count))
            guard hex.count == 4, let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) else {
                throw error("expected four hex digits after '\\u'", at: start)
            }
            position += 4
            return scalar
        default:
            throw error("unknown escape '\\\(character)'", at: start)
        }
    }
}

extension Unicode.Scalar {
    /// A letter or underscore: what a key or keyword starts with.
    fileprivate var isWordStart: Bool { properties.isAlphabetic || self == "_" }

    /// What a key or keyword continues with: letters, digits, underscores and combining marks.
    fileprivate var isWordPart: Bool {
        isWordStart || properties.numericType != nil || properties.generalCategory == .nonspacingMark
            || properties.generalCategory == .spacingMark
    }

    /// 0 to 9.
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
