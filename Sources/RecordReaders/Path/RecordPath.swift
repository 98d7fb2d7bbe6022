// RecordPath: which values of a JSON document, or which elements of an XML document, are
// records (docs/PlanFormat.md). Parsed with the same lexer as field paths.

/// The JSON records selector: keys, `[*]` and `[n]` from the root.
struct JSONRecordPath: Sendable {
    enum Step: Sendable, Equatable {
        case key([UInt8])
        case wildcard
        case index(Int)
    }

    let steps: [Step]
    /// When the selected value is an array, its elements are the records (the default
    /// root selector, and paths ending in a key).
    let expandsArray: Bool
    /// The path as written, for messages.
    let text: String

    /// `nil`: the root array's elements, or the root value; `$`: the root value itself;
    /// otherwise `items[*]`, `data.rows[*]`, `$.items[*]`, `[*]`…
    init(_ text: String?) throws(PathSyntaxError) {
        self.text = text ?? "$"
        guard var body = text else {
            steps = []
            expandsArray = true
            return
        }
        if body.hasPrefix("$") { body.removeFirst() }
        if body.hasPrefix(".") { body.removeFirst() }
        if body.isEmpty {
            steps = []
            expandsArray = false
            return
        }
        var steps: [Step] = []
        for step in try PathLexer.steps(of: body) {
            switch step {
            case .child(let name): steps.append(.key(name))
            case .wildcard: steps.append(.wildcard)
            case .index(let index): steps.append(.index(index))
            case .attribute, .column, .this:
                throw PathSyntaxError(path: body, offset: 0, reason: "a JSON records path has keys, [n] and [*] only")
            }
        }
        self.steps = steps
        if case .key = steps.last { expandsArray = true } else { expandsArray = false }
    }
}

/// The XML records selector: element local names from the root, `*` for any name.
struct XMLRecordPath: Sendable {
    /// Local names; an empty name matches any element.
    let names: [[UInt8]]
    /// The path as written, for messages.
    let text: String

    /// `nil`: every child of the root element; otherwise `catalog/item`, `/catalog/item`,
    /// `*/item`…
    init(_ text: String?) throws(PathSyntaxError) {
        guard var body = text else {
            names = [[], []]
            self.text = "*/*"
            return
        }
        self.text = body
        if body.hasPrefix("/") { body.removeFirst() }
        var names: [[UInt8]] = []
        for step in try PathLexer.steps(of: body) {
            guard case .child(let name) = step else {
                throw PathSyntaxError(path: body, offset: 0, reason: "an XML records path has element names only")
            }
            names.append(name == [UInt8(ascii: "*")] ? [] : name)
        }
        self.names = names
    }
}
