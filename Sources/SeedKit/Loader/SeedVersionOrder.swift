// How a store's `seed.version` compares with a seed's (the decision of docs/FirstLaunch.md).
// Versions that are both dotted numbers ("2026.11", "1.2.0") compare numerically, component by
// component, missing components counting as 0 ("1.2" == "1.2.0", "2026.9" < "2026.11"). Anything
// else compares as text: equal strings are the same version, different ones are "different"
// (and a different seed is merged, so a label such as "spring-sale" still triggers a merge).

/// Where a store's seed version stands against the seed's.
enum SeedVersionOrder: Sendable, Hashable {
    /// The store records no seed version.
    case missing
    /// The store's version is older than the seed's.
    case older
    /// Both are the same version.
    case same
    /// The store's version is newer than the seed's (the app shipped an older seed).
    case newer
    /// The versions differ and are not both dotted numbers.
    case different

    /// How `store` (the user store's `seed.version`, if any) stands against `seed`.
    init(store: String?, seed: String) {
        guard let store else {
            self = .missing
            return
        }
        guard let storeNumbers = Self.numbers(store), let seedNumbers = Self.numbers(seed) else {
            self = store == seed ? .same : .different
            return
        }
        let width = max(storeNumbers.count, seedNumbers.count)
        let padded = { (numbers: [UInt64]) in numbers + Array(repeating: 0, count: width - numbers.count) }
        let (left, right) = (padded(storeNumbers), padded(seedNumbers))
        self = left == right ? .same : left.lexicographicallyPrecedes(right) ? .older : .newer
    }

    /// The components of a dotted numeric version, or nil when `text` is not one.
    private static func numbers(_ text: String) -> [UInt64]? {
        var numbers: [UInt64] = []
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            guard !part.isEmpty, part.allSatisfy({ ("0"..."9").contains($0) }), let number = UInt64(part) else {
                return nil
            }
            numbers.append(number)
        }
        return numbers
    }
}
