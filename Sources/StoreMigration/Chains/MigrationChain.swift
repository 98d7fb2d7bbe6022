// The order of model versions a migration walks: given explicitly (a list, or a tree of
// source → destination edges, which can also lead to older versions), or taken from the
// versions' names (NaturalVersionOrder). Xcode stores no order between the versions of an
// `.xcdatamodeld`.
// Invariants: a chain names each version at most once in a list; a tree has no loop; both are
// checked when the chain is made.

/// The order in which a migration walks model versions.
///
/// ```swift
/// let forward = try MigrationChain(["Model", "Model 2", "Model 3"])
/// let down = try MigrationChain(["V2": "V1"])      // a store at V2 may go back to V1
/// ```
public struct MigrationChain: Sendable, Hashable {
    private enum Shape: Sendable, Hashable {
        case linear([String])
        case tree([String: String])
    }

    private let shape: Shape

    /// A chain that walks `versions` in this order.
    ///
    /// - Throws: ``MigrationError`` (`.invalidChain`) when it is empty or names a version twice.
    public init(_ versions: [String]) throws(MigrationError) {
        guard !versions.isEmpty else { throw Self.invalid("it names no version") }
        var seen: Set<String> = []
        for version in versions where !seen.insert(version).inserted {
            throw Self.invalid("'\(version)' appears twice")
        }
        shape = .linear(versions)
    }

    /// A chain of edges: from each key, a migration goes to its value.
    ///
    /// - Throws: ``MigrationError`` (`.invalidChain`) when it is empty, an edge leads back to
    ///   its own version, or the edges form a loop.
    public init(_ edges: [String: String]) throws(MigrationError) {
        guard !edges.isEmpty else { throw Self.invalid("it names no version") }
        for start in edges.keys.sorted() {
            var seen: Set<String> = [start]
            var current = start
            while let next = edges[current] {
                guard seen.insert(next).inserted else {
                    throw Self.invalid("the edges form a loop through '\(next)'")
                }
                current = next
            }
        }
        shape = .tree(edges)
    }

    /// Every version the chain names.
    public var versions: [String] {
        switch shape {
        case .linear(let versions): versions
        case .tree(let edges): Array(Set(edges.keys).union(edges.values)).sorted()
        }
    }

    /// The versions from `source` to `target`, both included, when the chain leads there.
    func path(from source: String, to target: String) -> [String]? {
        switch shape {
        case .linear(let versions):
            guard let start = versions.firstIndex(of: source), let end = versions.firstIndex(of: target),
                start <= end
            else { return nil }
            return Array(versions[start...end])
        case .tree(let edges):
            var path = [source]
            var current = source
            while current != target {
                guard let next = edges[current] else { return nil }
                path.append(next)
                current = next
            }
            return path
        }
    }

    /// The chain as text: `A → B → C`, or `A → B, C → D` for edges.
    public var text: String {
        switch shape {
        case .linear(let versions): versions.joined(separator: " → ")
        case .tree(let edges):
            edges.sorted { $0.key < $1.key }.map { "\($0.key) → \($0.value)" }.joined(separator: ", ")
        }
    }

    private static func invalid(_ why: String) -> MigrationError {
        MigrationError(.invalidChain(why), store: "")
    }
}
