// A recursive-descent parser for the NSPredicate format language subset (docs/Predicates.md).
// Grammar, lowest precedence first:
//   predicate  := and { (OR | ||) and }
//   and        := unary { (AND | &&) unary }
//   unary      := (NOT | !) unary | '(' predicate ')' | TRUEPREDICATE | FALSEPREDICATE | comparison
//   comparison := [ANY | SOME | ALL | NONE] expression operator ['[' c|d|cd ']'] expression
//   expression := keyPath | SELF | literal | %@ | %K | $VAR ['.' keyPath] | '{' [expression {',' expression}] '}'
//                 | CAST '(' literal ',' "type" ')' | SUBQUERY '(' expression ',' $VAR ',' predicate ')' ['.' keyPath]
//   keyPath    := key {'.' (key | '@count' | '@sum' | '@avg' | '@min' | '@max')}
// Invariants: `%@` and `%K` consume the arguments left to right, and every argument must be used;
// errors carry the character offset of the token where the problem was found.

extension FetchPredicate {
    /// Parses an NSPredicate-style format string, replacing `%@` (a value) and `%K` (a key path)
    /// with `arguments` in order.
    ///
    /// ```swift
    /// let predicate = try FetchPredicate(format: "%K BEGINSWITH[cd] %@ AND quantity BETWEEN {20, 35}", "name", "apf")
    /// ```
    ///
    /// - Throws: ``PredicateSyntaxError`` with the offset of the problem.
    public init(format: String, _ arguments: any PredicateArgument...) throws {
        try self.init(format: format, argumentArray: arguments)
    }

    /// Parses an NSPredicate-style format string with the `%@` and `%K` arguments in an array.
    ///
    /// - Throws: ``PredicateSyntaxError`` with the offset of the problem.
    public init(format: String, argumentArray: [any PredicateArgument]) throws {
        var lexer = PredicateLexer(format)
        var parser = PredicateParser(tokens: try lexer.tokenize(), arguments: argumentArray)
        self = try parser.parse()
    }
}

/// Parses tokens into a ``FetchPredicate``.
struct PredicateParser {
    private let tokens: [PredicateToken]
    private let arguments: [any PredicateArgument]
    private var position = 0
    private var argumentIndex = 0

    init(tokens: [PredicateToken], arguments: [any PredicateArgument]) {
        self.tokens = tokens
        self.arguments = arguments
    }

    /// The whole predicate; every token and argument must be used.
    mutating func parse() throws -> FetchPredicate {
        let predicate = try parseOr()
        guard current.kind == .end else { throw error("unexpected '\(current.text)'") }
        guard argumentIndex == arguments.count else {
            throw error("too many arguments: \(arguments.count) given, \(argumentIndex) used")
        }
        return predicate
    }

    private var current: PredicateToken { tokens[position] }

    private var previous: PredicateToken? { position > 0 ? tokens[position - 1] : nil }

    private mutating func advance() {
        if current.kind != .end { position += 1 }
    }

    private mutating func accept(_ kind: PredicateToken.Kind) -> Bool {
        guard current.kind == kind else { return false }
        advance()
        return true
    }

    private func error(_ message: String) -> PredicateSyntaxError {
        PredicateSyntaxError(message, at: current.offset)
    }

    /// "expected X after 'previous'" (or "expected X" at the start), at the current token.
    private func expected(_ what: String) -> PredicateSyntaxError {
        guard let previous else { return error("expected \(what)") }
        return error("expected \(what) after '\(previous.text)'")
    }

    /// "FIRST is not supported" for reserved words of features GraphStore leaves out; "… is not
    /// supported here" for keywords out of place.
    private func unsupported(_ keyword: PredicateKeyword) -> PredicateSyntaxError {
        error("\(keyword.rawValue) is not supported\(keyword.isUnsupported ? "" : " here")")
    }

    private mutating func expect(_ character: Character) throws {
        guard accept(.punctuation(character)) else { throw expected("'\(character)'") }
    }

    // MARK: - Predicates

    private mutating func parseOr() throws -> FetchPredicate {
        var elements = [try parseAnd()]
        while accept(.keyword(.or)) { elements.append(try parseAnd()) }
        return elements.count == 1 ? elements[0] : .or(elements)
    }

    private mutating func parseAnd() throws -> FetchPredicate {
        var elements = [try parseUnary()]
        while accept(.keyword(.and)) { elements.append(try parseUnary()) }
        return elements.count == 1 ? elements[0] : .and(elements)
    }

    private mutating func parseUnary() throws -> FetchPredicate {
        switch current.kind {
        case .keyword(.not):
            advance()
            return .not(try parseUnary())
        case .punctuation("("):
            advance()
            let predicate = try parseOr()
            try expect(")")
            return predicate
        case .keyword(.truePredicate):
            advance()
            return .truePredicate
        case .keyword(.falsePredicate):
            advance()
            return .falsePredicate
        case .keyword(let keyword) where keyword.modifier != nil:
            advance()
            return try parseComparison(modifier: keyword.modifier ?? .direct)
        case .end:
            throw expected("a predicate")
        default:
            return try parseComparison(modifier: .direct)
        }
    }

    private mutating func parseComparison(modifier: ComparisonModifier) throws -> FetchPredicate {
        let lhs = try parseExpression()
        let comparisonOperator: ComparisonOperator
        switch current.kind {
        case .comparison(let symbol): comparisonOperator = symbol
        case .keyword(let keyword):
            guard let keywordOperator = keyword.comparisonOperator else { throw unsupported(keyword) }
            comparisonOperator = keywordOperator
        default:
            throw expected("an operator")
        }
        advance()
        let options = try parseOptions()
        let rhs = try parseExpression()
        return .compare(lhs, comparisonOperator, rhs, options: options, modifier: modifier)
    }

    /// `[c]`, `[d]`, `[cd]` (or `[dc]`), or nothing.
    private mutating func parseOptions() throws -> StringComparisonOptions {
        guard accept(.punctuation("[")) else { return [] }
        guard case .identifier(let letters) = current.kind, !letters.isEmpty else {
            throw expected("comparison options c, d or cd")
        }
        var options: StringComparisonOptions = []
        for letter in letters.lowercased() {
            switch letter {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            default: throw error("unknown comparison option '\(letter)'")
            }
        }
        advance()
        try expect("]")
        return options
    }

    // MARK: - Expressions

    private mutating func parseExpression() throws -> FetchExpression {
        let token = current
        switch token.kind {
        case .identifier(let key):
            advance()
            return .keyPath(try parseKeyPathTail(after: key))
        case .keyword(.self):
            advance()
            return .keyPath(FetchExpression.selfKeyPath)
        case .keyword(.true), .keyword(.yes):
            advance()
            return .constant(.value(.boolean(true)))
        case .keyword(.false), .keyword(.no):
            advance()
            return .constant(.value(.boolean(false)))
        case .keyword(.nil), .keyword(.null):
            advance()
            return .constant(.null)
        case .keyword(.cast):
            advance()
            return .constant(try parseCast(at: token))
        case .string(let string):
            advance()
            return .constant(.value(.string(string)))
        case .integer(let integer):
            advance()
            return .constant(.value(.integer(integer)))
        case .real(let real):
            advance()
            return .constant(.value(.double(real)))
        case .variable(let name):
            advance()
            return try parseMember(of: .variable(name))
        case .keyword(.subquery):
            advance()
            return try parseMember(of: try parseSubquery())
        case .valueArgument:
            let argument = try nextArgument()
            advance()
            return argument.predicateExpression
        case .keyPathArgument:
            let argument = try nextArgument()
            guard case .constant(.value(.string(let keyPath))) = argument.predicateExpression, !keyPath.isEmpty else {
                throw error("%K needs a non-empty string argument")
            }
            advance()
            return .keyPath(keyPath)
        case .punctuation("{"):
            advance()
            return .aggregate(try parseAggregateElements())
        case .keyword(let keyword) where keyword.isUnsupported:
            throw unsupported(keyword)
        default:
            throw expected("a value")
        }
    }

    /// The rest of a dotted key path after its first key (which may be empty, for a key path
    /// applied to another expression): keys and collection operators.
    private mutating func parseKeyPathTail(after first: String) throws -> String {
        var keyPath = first
        while accept(.punctuation(".")) {
            let key: String
            switch current.kind {
            case .identifier(let name):
                key = name
            case .operatorKey(let name):
                guard let collectionOperator = CollectionOperator(key: "@" + name) else {
                    throw error("unknown collection operator '@\(name)'")
                }
                key = collectionOperator.rawValue
            default:
                throw expected("a key")
            }
            keyPath += keyPath.isEmpty ? key : "." + key
            advance()
        }
        return keyPath
    }

    /// `base.keyPath` when a dot follows, `base` otherwise.
    private mutating func parseMember(of base: FetchExpression) throws -> FetchExpression {
        guard current.kind == .punctuation(".") else { return base }
        return .member(base, keyPath: try parseKeyPathTail(after: ""))
    }

    /// `(collection, $variable, predicate)`; `SUBQUERY` has been read.
    private mutating func parseSubquery() throws -> FetchExpression {
        try expect("(")
        let collection = try parseExpression()
        try expect(",")
        guard case .variable(let variable) = current.kind else { throw expected("a $variable") }
        advance()
        try expect(",")
        let predicate = try parseOr()
        try expect(")")
        return .subquery(collection: collection, variable: variable, predicate: predicate)
    }

    /// The elements of `{…}`; the brace has been read.
    private mutating func parseAggregateElements() throws -> [FetchExpression] {
        var elements: [FetchExpression] = []
        if accept(.punctuation("}")) { return elements }
        repeat {
            elements.append(try parseExpression())
        } while accept(.punctuation(","))
        try expect("}")
        return elements
    }

    private mutating func nextArgument() throws -> any PredicateArgument {
        guard argumentIndex < arguments.count else { throw error("missing argument for '\(current.text)'") }
        defer { argumentIndex += 1 }
        return arguments[argumentIndex]
    }

    /// `CAST(value, "type")`, the description's spelling of typed constants; `CAST` has been read.
    private mutating func parseCast(at start: PredicateToken) throws -> PredicateConstant {
        try expect("(")
        let valueToken = current
        advance()
        try expect(",")
        guard case .string(let typeName) = current.kind else { throw expected("a type name string") }
        advance()
        try expect(")")
        guard let constant = CastType(rawValue: typeName)?.constant(from: valueToken.kind) else {
            throw PredicateSyntaxError("cannot cast '\(valueToken.text)' to \(typeName)", at: start.offset)
        }
        return constant
    }
}
