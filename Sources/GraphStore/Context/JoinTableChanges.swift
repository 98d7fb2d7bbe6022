// Pending row changes of one join table: pairs to insert and pairs to delete at save.
// Invariant: a pair is never in both sets; adding a pending deletion cancels it, and vice versa.

/// The pairs a save must add to or remove from a join table.
struct JoinTableChanges {
    struct Pair {
        let source: ManagedObject
        let destination: ManagedObject
    }

    private struct Key: Hashable {
        let source: ObjectIdentifier
        let destination: ObjectIdentifier
    }

    private(set) var inserted: [Pair] = []
    private var insertedKeys: [Key: Int] = [:]
    private var deleted: [Key: Pair] = [:]

    var isEmpty: Bool { insertedKeys.isEmpty && deleted.isEmpty }

    /// Pairs to insert, in the order they were added.
    var pairsToInsert: [Pair] {
        inserted.enumerated().filter { insertedKeys[key(of: $0.element)] == $0.offset }.map(\.element)
    }

    /// Pairs to delete.
    var pairsToDelete: [Pair] { Array(deleted.values) }

    mutating func add(source: ManagedObject, destination: ManagedObject) {
        let key = Key(source: ObjectIdentifier(source), destination: ObjectIdentifier(destination))
        if deleted.removeValue(forKey: key) != nil { return }
        guard insertedKeys[key] == nil else { return }
        insertedKeys[key] = inserted.count
        inserted.append(Pair(source: source, destination: destination))
    }

    mutating func remove(source: ManagedObject, destination: ManagedObject) {
        let key = Key(source: ObjectIdentifier(source), destination: ObjectIdentifier(destination))
        if insertedKeys.removeValue(forKey: key) != nil { return }
        deleted[key] = Pair(source: source, destination: destination)
    }

    /// Drops every pending pair, to insert or to delete, that has `object` at either end.
    mutating func removePairs(involving object: ManagedObject) {
        let identity = ObjectIdentifier(object)
        insertedKeys = insertedKeys.filter { $0.key.source != identity && $0.key.destination != identity }
        deleted = deleted.filter { $0.key.source != identity && $0.key.destination != identity }
        if insertedKeys.isEmpty { inserted = [] }
    }

    private func key(of pair: Pair) -> Key {
        Key(source: ObjectIdentifier(pair.source), destination: ObjectIdentifier(pair.destination))
    }
}
