// What the field and records paths of a plan must look like for their source's format
// (docs/PlanFormat.md): syntax through RecordReaders' own parser, plus the rules
// that depend on the format (`#3` columns are CSV's, `@attribute` steps and `[n]` are not XML
// record paths' …).
// Invariant: a path these rules accept is one `FieldPath(parsing:)` accepts, and a records path
// they accept is one the JSON or XML reader accepts.
import RecordReaders

/// Format-aware checks of field and records paths.
enum PlanPathRules {
    /// Why `field` cannot name a field of `context`'s records, or nil when it can.
    static func fieldProblem(_ field: String, context: SourceContext) -> String? {
        if let problem = syntaxProblem(field) { return problem }
        let isColumn = field.hasPrefix("#")
        guard let format = context.format else { return nil }
        if context.isTabular {
            return isColumn || context.hasHeader
                ? nil : "names a column, but the file has no header row (header: false): use #1, #2, …"
        }
        return isColumn
            ? "is a column number, which only csv and tsv sources have: name the \(format == .xml ? "element" : "key")"
            : nil
    }

    /// Why `path` is not a JSON records path (`items[*]`, `$.data.rows[*]`, `$`), or nil.
    static func jsonRecordsProblem(_ path: String) -> String? {
        var body = Substring(path)
        if body.hasPrefix("$") { body = body.dropFirst() }
        if body.hasPrefix(".") { body = body.dropFirst() }
        if body.isEmpty { return nil }
        if let problem = syntaxProblem(String(body)) { return problem }
        if body.hasPrefix("#") || body == "." || containsUnquoted("@", in: body) {
            return "is not a JSON records path: use keys, [n] and [*] (items[*], data.rows[*])"
        }
        return nil
    }

    /// Why `path` is not an XML records path (`catalog/item`, `*/item`), or nil.
    static func xmlRecordsProblem(_ path: String) -> String? {
        let body = path.hasPrefix("/") ? String(path.dropFirst()) : path
        if let problem = syntaxProblem(body) { return problem }
        if body.hasPrefix("#") || body == "." || containsUnquoted("@", in: body) || containsUnquoted("[", in: body) {
            return "is not an XML records path: use element names from the root (catalog/item, */item)"
        }
        return nil
    }

    /// Whether `field` yields a list whatever the data (it has a `[*]` step).
    static func yieldsList(_ field: String) -> Bool {
        var rest = Substring(field)
        while let bracket = firstUnquoted("[", in: rest) {
            rest = rest[rest.index(after: bracket)...]
            if rest.hasPrefix("*]") { return true }
        }
        return false
    }

    /// RecordReaders' verdict on the path's syntax, as a message.
    private static func syntaxProblem(_ path: String) -> String? {
        do {
            _ = try FieldPath(parsing: path)
            return nil
        } catch {
            return "is not a valid path: \(error.reason) (at character \(error.offset + 1))"
        }
    }

    private static func containsUnquoted(_ character: Character, in text: some StringProtocol) -> Bool {
        firstUnquoted(character, in: Substring(text)) != nil
    }

    /// The first `character` outside `"quoted names"` (where `\` escapes the next character).
    private static func firstUnquoted(_ character: Character, in text: Substring) -> String.Index? {
        var quoted = false
        var escaped = false
        for index in text.indices {
            let current = text[index]
            if escaped {
                escaped = false
            } else if quoted, current == "\\" {
                escaped = true
            } else if current == "\"" {
                quoted.toggle()
            } else if !quoted, current == character {
                return index
            }
        }
        return nil
    }
}
