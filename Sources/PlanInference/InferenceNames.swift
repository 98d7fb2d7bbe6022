// Names in a drafted plan and model: entity names from file and element names (`items.csv` →
// `Item`), attribute names from field names (`Unit Price` → `unitPrice`), the loose comparison
// that finds a field named after an entity or property (`items` ~ `Item`, `locationathome` ~
// `locationAtHome`), and field paths written as plans want them (quoted where needed).
import Foundation

/// How the inference names things and compares names.
enum InferenceNames {
    /// Names the store keeps for its own columns (docs/ModelFiles.md).
    static let reserved: Set<String> = ["pk", "ent", "opt"]

    /// The words of `text`: runs of ASCII letters and digits, split where a lower-case letter or
    /// digit meets an upper-case one (`unitPrice` → unit, Price).
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previousIsLowerOrDigit = false
        for character in text {
            guard character.isASCII, character.isLetter || character.isNumber else {
                if !current.isEmpty { words.append(current) }
                current = ""
                previousIsLowerOrDigit = false
                continue
            }
            if character.isUppercase, previousIsLowerOrDigit, !current.isEmpty {
                words.append(current)
                current = ""
            }
            current.append(character)
            previousIsLowerOrDigit = character.isLowercase || character.isNumber
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// An attribute or relationship name for a field: lower camel case (`Unit Price` → `unitPrice`,
    /// `SKU` → `sku`), `_` in front of a leading digit, `Value` after a reserved name; `field` when
    /// nothing is left.
    static func propertyName(_ text: String) -> String {
        let parts = words(text)
        guard let first = parts.first else { return "field" }
        var name = first.lowercased() + parts.dropFirst().map(capitalizedWord).joined()
        if let initial = name.first, initial.isNumber { name = "_" + name }
        if reserved.contains(name) { name += "Value" }
        return name
    }

    /// An entity name for a file or element name: upper camel case, singular
    /// (`items.csv` → `Item`, `shopping_lists` → `ShoppingList`, `DefaultData` → `DefaultData`).
    static func entityName(_ text: String) -> String {
        var parts = words(text)
        guard let last = parts.popLast() else { return "Record" }
        parts.append(singular(last))
        var name = parts.map(capitalizedWord).joined()
        if let initial = name.first, initial.isNumber { name = "E" + name }
        return name
    }

    /// `Price` for `price`, `Sku` for `SKU`; a word that mixes cases keeps them after its first letter.
    private static func capitalizedWord(_ word: String) -> String {
        let rest = word.dropFirst()
        let tail = rest.allSatisfy { !$0.isLowercase } ? rest.lowercased() : String(rest)
        return word.prefix(1).uppercased() + tail
    }

    /// English singular of a plural word, by its ending (`categories` → `category`,
    /// `boxes` → `box`, `items` → `item`); other words as they are.
    static func singular(_ word: String) -> String {
        let lower = word.lowercased()
        if lower.hasSuffix("ies"), word.count > 3 { return word.dropLast(3) + (word.last!.isUppercase ? "Y" : "y") }
        for ending in ["sses", "xes", "ches", "shes"] where lower.hasSuffix(ending) {
            return String(word.dropLast(2))
        }
        if lower.hasSuffix("s"), !lower.hasSuffix("ss"), word.count > 1 { return String(word.dropLast()) }
        return word
    }

    /// English plural of a name (`list` → `lists`, `category` → `categories`, `box` → `boxes`).
    static func plural(_ word: String) -> String {
        let lower = word.lowercased()
        if lower.hasSuffix("y"), let before = lower.dropLast().last, !"aeiou".contains(before) {
            return word.dropLast() + "ies"
        }
        if ["s", "x", "ch", "sh"].contains(where: lower.hasSuffix) { return word + "es" }
        return word + "s"
    }

    /// `base`, or `base2`, `base3`… — the first that `used` does not hold yet, which is added to it.
    static func unique(_ base: String, in used: inout Set<String>) -> String {
        var name = base
        var number = 2
        while used.contains(name) {
            name = base + String(number)
            number += 1
        }
        used.insert(name)
        return name
    }

    /// `name` reduced for loose comparison: lower-case letters and digits only.
    static func folded(_ name: String) -> String {
        String(name.lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) })
    }

    /// Whether `field` names `name` loosely: the same letters and digits ignoring case and
    /// separators, in the singular or plural (`items` ~ `Item`, `location_at_home` ~ `locationAtHome`).
    static func field(_ field: String, names name: String) -> Bool {
        let field = folded(field)
        let name = folded(name)
        return !field.isEmpty && (field == name || folded(singular(field)) == name || field == folded(plural(name)))
    }

    /// `name` as one component of a field path, quoted when it holds characters paths give a
    /// meaning to (`.`, `/`, `[`, `@`, `#`, `"`, or white space at either end).
    static func pathComponent(_ name: String) -> String {
        let special =
            name.isEmpty || name.contains(where: { ".[]/@#\"\\".contains($0) })
            || name.first?.isWhitespace == true || name.last?.isWhitespace == true
        guard special else { return name }
        return "\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            + "\""
    }
}
