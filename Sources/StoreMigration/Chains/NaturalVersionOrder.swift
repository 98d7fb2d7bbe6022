// The order of model versions taken from their names, when no chain is given: every name is one
// stem `S` alone (number 1) or `S` + a separator + an integer (`Model 2`, `SampleModel3_v2`,
// `Advanced.EvolutionDemo.V2`, `Modelv5`), and the numbers are distinct. The stem is found, not
// given: each name offers itself and itself without its trailing integer and the longest
// separator before it, and exactly one such candidate must fit every name.
// Invariant: names that fit no single stem, or fit several, or repeat a number, have no order
// (`Model`, `Model 2`, `Modelv2`); the caller then needs an explicit chain.

/// Orders version names by the number each carries after a common stem.
///
/// ```swift
/// try NaturalVersionOrder.sorted(["Model 10", "Model", "Model 2"])   // ["Model", "Model 2", "Model 10"]
/// ```
package enum NaturalVersionOrder {
    /// The separators allowed between the stem and the number, longest first.
    static let separators = ["_v", " v", "_V", ".V", "", " ", "_", "-", ".", "v", "V"].sorted { $0.count > $1.count }

    /// `names` in the order of their numbers.
    ///
    /// - Throws: ``MigrationError`` (`.ambiguousOrder`) when the names give no single order.
    package static func sorted(_ names: [String]) throws(MigrationError) -> [String] {
        guard names.count > 1 else { return names }
        var candidates: [String] = []
        for name in names {
            for stem in [name, stemOf(name)].compactMap({ $0 }) where !candidates.contains(stem) {
                candidates.append(stem)
            }
        }
        let fitting = candidates.compactMap { stem -> [(name: String, number: Int)]? in
            var numbered: [(name: String, number: Int)] = []
            for name in names {
                guard let number = number(of: name, stem: stem) else { return nil }
                numbered.append((name, number))
            }
            return Set(numbered.map(\.number)).count == names.count ? numbered : nil
        }
        guard fitting.count == 1, let order = fitting.first else {
            throw MigrationError(.ambiguousOrder(names.sorted()), store: "")
        }
        return order.sorted { $0.number < $1.number }.map(\.name)
    }

    /// `name` without its trailing integer and the longest separator before it; nil when it ends in no digit.
    private static func stemOf(_ name: String) -> String? {
        let digits = name.reversed().prefix { $0.isASCII && $0.isNumber }.count
        guard digits > 0, digits < name.count else { return nil }
        let rest = String(name.dropLast(digits))
        let separator = separators.first { rest.hasSuffix($0) && rest.count > $0.count } ?? ""
        return String(rest.dropLast(separator.count))
    }

    /// The number `name` has after `stem`: 1 for the stem alone, else the integer after an allowed separator.
    private static func number(of name: String, stem: String) -> Int? {
        if name == stem { return 1 }
        guard name.hasPrefix(stem) else { return nil }
        let rest = name.dropFirst(stem.count)
        let digits = rest.reversed().prefix { $0.isASCII && $0.isNumber }.count
        guard digits > 0, separators.contains(String(rest.dropLast(digits))) else { return nil }
        return Int(rest.suffix(digits))
    }
}
