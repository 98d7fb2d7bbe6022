// Compares two stores' object graphs: objects matched by their unique key (entities without
// one by their attribute values), then attributes and relationships compared by the keys of
// the destinations, ordered membership in order.
// Invariant: the result depends only on the stores' contents, not on their primary keys, so a
// copy compares equal to its source.
import GraphStore

/// The differences between two stores.
///
/// ```swift
/// let differences = try StoreDiff(try PersistentStore.open(at: "A.sqlite"), try PersistentStore.open(at: "B.sqlite")).differences()
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

    /// Every difference, one line each, in entity and key order.
    public func differences() throws -> [String] {
        var lines: [String] = []
        let names = Set(first.model.entities.filter { !$0.isAbstract }.map(\.name))
        let otherNames = Set(second.model.entities.filter { !$0.isAbstract }.map(\.name))
        for name in names.symmetricDifference(otherNames).sorted() {
            lines.append("\(name): entity only in \(names.contains(name) ? "A" : "B")")
        }
        for name in names.intersection(otherNames).sorted() {
            let left = try Self.snapshot(of: name, in: first)
            let right = try Self.snapshot(of: name, in: second)
            for key in Set(left.keys).union(right.keys).sorted() {
                switch (left[key], right[key]) {
                case (let a?, let b?):
                    for property in Set(a.keys).union(b.keys).sorted() where a[property] != b[property] {
                        lines.append("\(name)[\(key)].\(property): \(a[property] ?? "—") ≠ \(b[property] ?? "—")")
                    }
                case (_?, nil): lines.append("\(name)[\(key)]: only in A")
                case (nil, _?): lines.append("\(name)[\(key)]: only in B")
                case (nil, nil): break
                }
            }
        }
        return lines
    }

    /// Each object of the concrete entity `name`: its key → property → value text.
    private static func snapshot(of name: String, in store: PersistentStore) throws -> [String: [String: String]] {
        let context = try ObjectContext(store: store)
        let entity = try context.entity(named: name)
        var objects: [String: [String: String]] = [:]
        var last: Int64 = 0
        while case let page = try context.fetchPage(of: name, after: last, limit: 2000, includesSubentities: false),
            let final = page.last
        {
            for relationship in entity.relationships where relationship.isToMany && !relationship.isTransient {
                try context.prefetch(relationship.name, of: page)
            }
            for object in page {
                var properties: [String: String] = [:]
                for attribute in entity.attributes where !attribute.isTransient {
                    properties[attribute.name] = try object.value(at: attribute.index).map { "\($0)" } ?? "nil"
                }
                for relationship in entity.relationships where !relationship.isTransient {
                    if relationship.isToMany {
                        var keys = try object.relatedObjects(at: relationship.index).map(identity)
                        if !relationship.isOrdered { keys.sort() }
                        properties[relationship.name] = "[" + keys.joined(separator: ", ") + "]"
                    } else {
                        properties[relationship.name] =
                            try object.related(at: relationship.index).map(identity) ?? "nil"
                    }
                }
                var key = try identity(object)
                while objects[key] != nil { key += "'" }  // identical unkeyed objects stay distinct
                objects[key] = properties
            }
            last = final.objectID.key
            context.reset()
        }
        return objects
    }

    /// An object's identity across stores: its unique key, else all its attribute values.
    private static func identity(_ object: ManagedObject) throws -> String {
        let names =
            object.entity.uniqueConstraints.first
            ?? object.entity.attributes.filter { !$0.isTransient }.map(\.name)
        return try names.map { try object[$0].map { "\($0)" } ?? "nil" }.joined(separator: ",")
    }
}
