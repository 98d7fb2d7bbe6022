// RecordPath: which values of a JSON document, or which elements of an XML document, are
// records (docs/PlanFormat.md), and whether several paths can select records in one pass
// (they are disjoint: no path selects a value inside, or equal to, what another selects).
// Parsed with the same lexer as field paths.

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

    /// Whether no value this path selects lies inside, or is, one `other` selects: at some
    /// step both ask for different keys, different indexes, or a key against an element.
    func isDisjoint(from other: JSONRecordPath) -> Bool {
        zip(steps, other.steps).contains { step, otherStep in
            switch (step, otherStep) {
            case (.key(let name), .key(let otherName)): return name != otherName
            case (.index(let index), .index(let otherIndex)): return index != otherIndex
            case (.key, _), (_, .key): return true
            default: return false
            }
        }
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

    /// Whether no element this path selects lies inside, or is, one `other` selects: at some
    /// level both name different elements.
    func isDisjoint(from other: XMLRecordPath) -> Bool {
        zip(names, other.names).contains { name, otherName in
            !name.isEmpty && !otherName.isEmpty && name != otherName
        }
    }
}

/// Paths that select records in one pass: each pair disjoint.
extension Array {
    /// Whether every two elements are disjoint by `isDisjoint`.
    func arePairwiseDisjoint(_ isDisjoint: (Element, Element) -> Bool) -> Bool {
        indices.allSatisfy { first in indices[(first + 1)...].allSatisfy { isDisjoint(self[first], self[$0]) } }
    }
}

/// Record paths of one reader, by index (`ReaderOptions.records` is 0), as a bit set.
struct RecordPathSet: Sendable, Equatable {
    /// The most paths one reader selects by.
    static let capacity = 64
    private var bits: UInt64

    /// No path.
    static let none = RecordPathSet(bits: 0)

    /// Paths 0..<count.
    static func first(_ count: Int) -> RecordPathSet {
        RecordPathSet(bits: count >= capacity ? .max : (1 << UInt64(count)) - 1)
    }

    /// Path `index` alone.
    static func only(_ index: Int) -> RecordPathSet {
        RecordPathSet(bits: 1 << UInt64(index))
    }

    var isEmpty: Bool { bits == 0 }

    /// The lowest path index in the set, if any.
    var lowest: Int? { bits == 0 ? nil : bits.trailingZeroBitCount }

    /// The paths of the set for which `keep` holds.
    func filter(_ keep: (Int) -> Bool) -> RecordPathSet {
        var kept = RecordPathSet.none
        forEach { index in
            if keep(index) { kept.bits |= 1 << UInt64(index) }
        }
        return kept
    }

    /// Calls `body` with each path index of the set, lowest first.
    func forEach(_ body: (Int) -> Void) {
        var rest = bits
        while rest != 0 {
            body(rest.trailingZeroBitCount)
            rest &= rest - 1
        }
    }
}
