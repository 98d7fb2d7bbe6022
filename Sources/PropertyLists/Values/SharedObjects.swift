// SharedObjects: decodes each object of an object table once, however often it is referred to,
// for the binary reader (objects by index) and the keyed-archive resolver (`$objects` by UID).
// A shared object is reused, and each use is counted against maxValues with the number of values
// it unfolds into, so a file of shared references cannot unfold without bound; an object reached
// again while it is being decoded is a cycle.

/// The decoded objects of one table, and the values produced so far.
///
/// A class, so that a decoder's closures can decode members while the table is being filled.
final class SharedObjects<Value> {
    private var values: [Value?]
    private var unfoldedSize: [Int]
    private var inProgress: [Bool]
    private var valueCount = 0
    private let maxValues: Int

    /// A table of `count` objects, with at most `maxValues` values in all.
    init(count: Int, maxValues: Int) {
        values = Array(repeating: nil, count: count)
        unfoldedSize = Array(repeating: 0, count: count)
        inProgress = Array(repeating: false, count: count)
        self.maxValues = maxValues
    }

    /// Object `index`, decoded by `decode` the first time; errors are reported at `position`.
    func object(
        _ index: Int, at position: PropertyListError.Position, decode: () throws(PropertyListError) -> Value
    ) throws(PropertyListError) -> Value {
        if let value = values[index] {
            try count(unfoldedSize[index], at: position)
            return value
        }
        guard !inProgress[index] else { throw PropertyListError(.cycle(object: index), at: position) }
        inProgress[index] = true
        let before = valueCount
        try count(1, at: position)
        let value = try decode()
        inProgress[index] = false
        values[index] = value
        unfoldedSize[index] = valueCount - before
        return value
    }

    /// Counts `values` more values produced at `position`.
    func count(_ values: Int, at position: PropertyListError.Position) throws(PropertyListError) {
        valueCount += values
        guard valueCount <= maxValues else { throw PropertyListError(.tooManyValues(limit: maxValues), at: position) }
    }
}
