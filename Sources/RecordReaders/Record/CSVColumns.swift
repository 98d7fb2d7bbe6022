// CSVColumns: the header of a CSV file, shared by every record of one reader.
// Invariant: `index(of:)` returns the first column with a name (duplicates: first wins).

/// The column names of a CSV file and their 0-based indexes.
final class CSVColumns: Sendable {
    let names: [String]
    private let indexByName: [String: Int]

    init(names: [String]) {
        self.names = names
        var index: [String: Int] = [:]
        for (position, name) in names.enumerated() where index[name] == nil {
            index[name] = position
        }
        self.indexByName = index
    }

    /// The 0-based index of the first column called `name`.
    func index(of name: String) -> Int? { indexByName[name] }
}
