// Case and diacritic folding for `[c]`, `[d]`, `[cd]`, and NSPredicate's LIKE wildcards.
// Both the SQL functions (`SQLFunctions`) and in-memory evaluation call these, so a string
// matches the same way in a fetch and in a context's unsaved objects.
// Invariants: folding with no options returns the string unchanged; folded text is in Unicode
// normalization form C; ASCII text takes a fast path that gives the same result as the slow one.
import Foundation

/// String folding and pattern matching for predicates.
enum StringFolding {
    /// `string` with Unicode case folding (`[c]`: "Straße" → "strasse") and/or diacritics removed
    /// (`[d]`: "Äpfel" → "Apfel"), in precomposed form; unchanged when `options` is empty.
    static func fold(_ string: String, options: StringComparisonOptions) -> String {
        if options.isEmpty { return string }
        if string.utf8.allSatisfy({ $0 < 0x80 }) {
            guard options.contains(.caseInsensitive) else { return string }
            return String(decoding: string.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
        }
        var foundationOptions: String.CompareOptions = []
        if options.contains(.caseInsensitive) { foundationOptions.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { foundationOptions.insert(.diacriticInsensitive) }
        return string.folding(options: foundationOptions, locale: nil).precomposedStringWithCanonicalMapping
    }

    /// Whether all of `string` matches `pattern`, where `*` matches any run of characters
    /// (Unicode scalars), `?` exactly one, and `\` makes the next pattern character literal.
    /// Fold both first for `[c]`/`[d]`.
    static func matchesLike(_ string: String, pattern: String) -> Bool {
        let elements = likeElements(of: pattern)
        let scalars = Array(string.unicodeScalars)
        // Greedy matching that backtracks only to the most recent `*`: linear for most patterns,
        // O(n·m) at worst, never exponential.
        var s = 0
        var p = 0
        var star: (pattern: Int, string: Int)?
        while s < scalars.count {
            if p < elements.count {
                switch elements[p] {
                case .anyRun:
                    star = (p, s)
                    p += 1
                    continue
                case .any:
                    s += 1
                    p += 1
                    continue
                case .literal(let scalar) where scalar == scalars[s]:
                    s += 1
                    p += 1
                    continue
                case .literal:
                    break
                }
            }
            guard let resume = star else { return false }
            star = (resume.pattern, resume.string + 1)
            p = resume.pattern + 1
            s = resume.string + 1
        }
        return elements[p...].allSatisfy { $0 == .anyRun }
    }

    private enum LikeElement: Equatable {
        case literal(Unicode.Scalar)
        case any
        case anyRun
    }

    private static func likeElements(of pattern: String) -> [LikeElement] {
        var elements: [LikeElement] = []
        var escaped = false
        for scalar in pattern.unicodeScalars {
            if escaped {
                elements.append(.literal(scalar))
                escaped = false
                continue
            }
            switch scalar {
            case "\\": escaped = true
            case "*": if elements.last != .anyRun { elements.append(.anyRun) }
            case "?": elements.append(.any)
            default: elements.append(.literal(scalar))
            }
        }
        if escaped { elements.append(.literal("\\")) }
        return elements
    }
}
