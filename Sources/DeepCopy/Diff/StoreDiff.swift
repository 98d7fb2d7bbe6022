// Compares two stores' object graphs: objects matched by their unique key (entities without
// one by their attribute values), then attributes and relationships compared by the keys of
// the destinations, ordered membership in order. Each store's rows are first streamed into a
// scratch database on disk with their identities and attribute values (DiffObjects);
// then, entity by entity, both stores' objects are read back sorted by identity with their
// relationships (DiffRows) and merged like two sorted lists (DiffMerge). Memory stays bounded
// whatever the stores' sizes (one row, one object's to-many lists); the comparison
// stops at the first differences asked for.
// Invariant: the result depends only on the stores' contents, not on their primary keys, so a
// copy compares equal to its source. A SQLite failure while a store is read is a StoreError
// naming that store (`.damaged` for a damaged page).
import GraphStore

/// The differences between two stores.
///
/// ```swift
/// let differences = try StoreDiff(try PersistentStore.open(at: "A.sqlite"), try PersistentStore.open(at: "B.sqlite")).differences(limit: 20)
/// // ["Item[A-003].price: 0.99 ≠ 1.99", "Item[A-009]: only in B"]
/// ```
public struct StoreDiff {
    private let first: PersistentStore
    private let second: PersistentStore

    /// A comparison of `first` (A) with `second` (B).
    public init(_ first: PersistentStore, _ second: PersistentStore) {
        self.first = first
        self.second = second
    }

    /// The differences, one line each, in entity order and, within an entity, in key order
    /// (bytewise); at most `limit` of them (all when nil): the comparison stops there.
    public func differences(limit: Int? = nil) throws -> [String] {
        var lines: [String] = []
        if let limit, limit <= 0 { return lines }
        try forEachDifference { line in
            lines.append(line)
            return limit.map { lines.count < $0 } ?? true
        }
        return lines
    }

    /// Calls `body` with each difference, in the order of ``differences(limit:)``, until it
    /// returns false. Memory stays bounded however many objects and differences there are.
    ///
    /// ```swift
    /// var count = 0
    /// try StoreDiff(a, b).forEachDifference { line in print(line); count += 1; return count < 100 }
    /// ```
    public func forEachDifference(_ body: (String) throws -> Bool) throws {
        let names = Set(first.model.entities.filter { !$0.isAbstract }.map(\.name))
        let otherNames = Set(second.model.entities.filter { !$0.isAbstract }.map(\.name))
        for name in names.symmetricDifference(otherNames).sorted() {
            guard try body("\(name): entity only in \(names.contains(name) ? "A" : "B")") else { return }
        }
        let compared = names.intersection(otherNames).sorted()
        var properties: [String: [String]] = [:]
        for name in compared {
            properties[name] = Set(Self.propertyNames(of: name, in: first.model))
                .union(Self.propertyNames(of: name, in: second.model)).sorted()
        }
        let scratch = try DiffScratch(first, second)
        for (store, side) in [(first, DiffSide.a), (second, .b)] {
            try PersistentStore.sqlite(store.location.description) {
                try DiffObjects(layout: store.layout, side: side, properties: properties).write(into: scratch)
            }
        }
        for name in compared {
            guard let left = first.model.entity(named: name), let right = second.model.entity(named: name) else {
                continue
            }
            let columns = properties[name] ?? []
            let merge = DiffMerge(entity: name, properties: columns)
            let stopped = try !merge.run(
                try DiffRows(entity: left, store: first, side: .a, properties: columns, on: scratch.connection),
                try DiffRows(entity: right, store: second, side: .b, properties: columns, on: scratch.connection),
                report: body)
            if stopped { return }
        }
    }

    /// The stored properties of the entity `name` in `model`.
    private static func propertyNames(of name: String, in model: ObjectModel) -> [String] {
        guard let entity = model.entity(named: name) else { return [] }
        return entity.attributes.filter { !$0.isTransient }.map(\.name)
            + entity.relationships.filter { !$0.isTransient }.map(\.name)
    }
}
