// "Did you mean …?" for misspelt plan keys, entity, attribute and relationship names: the closest
// candidate by edit distance, when it is close enough to be a likely typo.
// Invariant: suggestions are deterministic (ties go to the candidate that sorts first).

/// Typo suggestions for names in plans.
enum PlanSuggestion {
    /// `; did you mean 'x'?` for the candidate closest to `name`, or "" when none is close.
    ///
    /// Close means at most 1 edit for names up to 4 characters, 2 up to 8, 3 beyond; case
    /// differences count as half an edit, so `Item` for `item` is always suggested.
    static func didYouMean(_ name: String, among candidates: some Sequence<String>) -> String {
        closest(to: name, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// The candidate closest to `name`, when close enough.
    static func closest(to name: String, among candidates: some Sequence<String>) -> String? {
        let limit = name.count <= 4 ? 2 : name.count <= 8 ? 4 : 6  // in half edits
        var best: (distance: Int, name: String)?
        for candidate in candidates where candidate != name {
            let distance = halfEditDistance(Array(name), Array(candidate))
            guard distance <= limit else { continue }
            if let current = best, (current.distance, current.name) <= (distance, candidate) { continue }
            best = (distance, candidate)
        }
        return best?.name
    }

    /// Edit distance in half edits (optimal string alignment): a change of case costs 1; an
    /// insertion, deletion, substitution or swap of two neighbours costs 2.
    private static func halfEditDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count * 2 }
        var beforePrevious: [Int] = []
        var previous = Array(stride(from: 0, through: b.count * 2, by: 2))
        var current = previous
        for i in 1...a.count {
            current[0] = i * 2
            for j in stride(from: 1, through: b.count, by: 1) {
                let substitution: Int
                if a[i - 1] == b[j - 1] {
                    substitution = 0
                } else if a[i - 1].lowercased() == b[j - 1].lowercased() {
                    substitution = 1
                } else {
                    substitution = 2
                }
                current[j] = min(previous[j] + 2, current[j - 1] + 2, previous[j - 1] + substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 2)
                }
            }
            beforePrevious = previous
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
