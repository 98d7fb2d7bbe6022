// The first pass of a diff over one store: every row of every entity table, read in one
// streaming query per table, gets its object's identity — one that does not depend on primary
// keys: its unique key's values, else every attribute's — written into the scratch table of its
// root table (the relationships' destinations are found there), and each object of a compared
// entity its attribute values as text. Values are decoded exactly as objects decode them
// (SQLiteStatement.attributeValue) and written as `AttributeValue` prints them.
// Relationships are not read here: the comparison reads them in SQL (DiffRows).
// Invariant: memory holds one row.
import GraphStore

/// Writes one store's identities and attribute values into a diff's scratch database.
struct DiffObjects {
    /// The store's layout (its model, tables and columns).
    let layout: StoreLayout
    let side: DiffSide
    /// The properties compared per entity name (the union of both models'), in column order.
    let properties: [String: [String]]

    /// How one concrete entity's rows are written.
    private struct Writer {
        /// The identity's attributes, as columns of the read query.
        let identity: [(attribute: ModelAttribute, column: Int32)]
        /// The insert into the entity's scratch table, and its attributes' columns of the read
        /// query with their parameters; nil when the entity is not compared.
        let insert: SQLiteStatement?
        let values: [(attribute: ModelAttribute, column: Int32, parameter: Int32)]
    }

    /// Writes every object of the store.
    func write(into scratch: DiffScratch) throws {
        for root in layout.roots {
            try write(root, into: scratch)
        }
    }

    private func write(_ root: ModelEntity, into scratch: DiffScratch) throws {
        let tree = layout.model.entities.filter { $0.rootIndex == root.index && !$0.isAbstract }
        let columns = Set(tree.flatMap { $0.attributes.filter { !$0.isTransient }.map(layout.column(of:)) }).sorted()
        let position = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1, Int32($0 + 2)) })
        let ids = side.identities(of: root)
        try scratch.createTable(ids, columns: [])
        let insertIdentity = try scratch.insert(into: ids, columns: [])
        var writers: [Int64: Writer] = [:]
        for entity in tree {
            let stored = entity.attributes.filter { !$0.isTransient }
            let names = entity.uniqueConstraints.first ?? stored.map(\.name)
            let identity = names.compactMap { name in
                entity.attribute(named: name).flatMap { attribute in
                    position[layout.column(of: attribute)].map { (attribute, $0) }
                }
            }
            var insert: SQLiteStatement?
            var values: [(ModelAttribute, Int32, Int32)] = []
            if let compared = properties[entity.name] {
                let written = compared.enumerated().compactMap { index, name in
                    entity.attribute(named: name).flatMap { attribute in
                        attribute.isTransient
                            ? nil : position[layout.column(of: attribute)].map { (attribute, $0, index) }
                    }
                }
                let names = written.map { "v\($0.2)" }
                try scratch.createTable(side.objects(of: entity), columns: names)
                insert = try scratch.insert(into: side.objects(of: entity), columns: names)
                values = written.enumerated().map { ($1.0, $1.1, Int32($0 + 3)) }
            }
            writers[layout.number(of: entity)] = Writer(identity: identity, insert: insert, values: values)
        }
        let rows = try scratch.connection.prepare(
            "SELECT \(layout.keyColumn), \(layout.entityColumn)"
                + columns.map { ", " + SQLiteIdentifier.quote($0) }.joined()
                + " FROM \(side.stored(layout.table(of: root)))")
        try scratch.connection.transaction(.immediate) {
            while try rows.step() {
                guard let writer = writers[rows.int64(1)] else { continue }
                let key = rows.int64(0)
                let identity = writer.identity.map { text(rows, $0.column, $0.attribute) }.joined(separator: ",")
                try Self.run(insertIdentity, key: key, identity: identity)
                guard let insert = writer.insert else { continue }
                for value in writer.values {
                    insert.bind(text: text(rows, value.column, value.attribute), at: value.parameter)
                }
                try Self.run(insert, key: key, identity: identity)
            }
        }
    }

    /// A value as the diff prints it: as `AttributeValue` prints it, `nil` for none.
    private func text(_ rows: SQLiteStatement, _ column: Int32, _ attribute: ModelAttribute) -> String {
        rows.attributeValue(at: column, type: attribute.type, encoding: layout.encoding(of: attribute)).map { "\($0)" }
            ?? "nil"
    }

    /// Binds the key and identity, runs and resets `statement`.
    private static func run(_ statement: SQLiteStatement, key: Int64, identity: String) throws {
        statement.bind(key, at: 1)
        statement.bind(text: identity, at: 2)
        try statement.execute()
        statement.reset()
    }
}
