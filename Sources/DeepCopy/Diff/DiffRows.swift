// The second pass of a diff, for one entity of one store: its objects sorted by identity (then
// key), each with its properties as text — attributes from the first pass (DiffObjects), a
// to-one as its destination's identity (`nil` when unset), a to-many as `[…]` of its members'
// identities (sorted, or in order when ordered) — read from SQL over the scratch tables and the
// store's own link columns and join tables. Each to-many is a query sorted like the objects, read
// alongside them, so a to-many's members are gathered for one object at a time.
// Invariant: memory holds one object and its to-many lists.
import GraphStore

/// One object as the diff compares it: its identity and its property values as text (nil for
/// a property its store does not have).
struct DiffRow {
    let identity: String
    let values: [String?]
}

/// One entity's objects of one store, sorted by identity.
final class DiffRows {
    /// The store's path, which errors name (a damaged page of the store is the store's error).
    private let path: String
    private let objects: SQLiteStatement
    private let width: Int
    /// Per to-many: its column among the properties, its query, and the owner key of its current row.
    private var toManys: [(column: Int, statement: SQLiteStatement, owner: Int64?)] = []

    /// The rows of `entity` (of `store`, attached as `side`) with `properties` as columns.
    init(
        entity: ModelEntity, store: PersistentStore, side: DiffSide, properties: [String],
        on connection: SQLiteConnection
    ) throws {
        let layout = store.layout
        let model = layout.model
        path = store.location.description
        width = properties.count
        let objectTable = SQLiteIdentifier.quote(side.objects(of: entity))
        var values: [String] = []
        var toManyQueries: [(Int, String)] = []
        for (column, name) in properties.enumerated() {
            if let attribute = entity.attribute(named: name), !attribute.isTransient {
                values.append("o.v\(column)")
            } else if let relationship = entity.relationship(named: name), !relationship.isTransient {
                let destination = model.entities[model.destination(of: relationship).rootIndex]
                let identities = SQLiteIdentifier.quote(side.identities(of: destination))
                if case .foreignKey(let link) = layout.storage(of: relationship) {
                    values.append(
                        "coalesce((SELECT d.identity FROM \(identities) AS d WHERE d.key = r.\(SQLiteIdentifier.quote(link))), 'nil')"
                    )
                } else {
                    values.append("NULL")
                    let members = Self.members(
                        of: relationship, destination: destination, identities: identities, side: side, layout: layout)
                    if let members {
                        toManyQueries.append(
                            (
                                column,
                                "SELECT o.key, d.identity FROM \(objectTable) AS o \(members.join) ORDER BY o.identity, o.key, \(members.order)"
                            ))
                    }
                }
            } else {
                values.append("NULL")
            }
        }
        let path = path
        objects = try PersistentStore.sqlite(path) {
            try connection.prepare(
                "SELECT o.identity, o.key" + values.map { ", " + $0 }.joined()
                    + " FROM \(objectTable) AS o JOIN \(side.stored(layout.table(of: entity))) AS r"
                    + " ON r.\(layout.keyColumn) = o.key ORDER BY o.identity, o.key")
        }
        for (column, sql) in toManyQueries {
            try PersistentStore.sqlite(path) {
                let statement = try connection.prepare(sql)
                toManys.append((column, statement, try statement.step() ? statement.int64(0) : nil))
            }
        }
    }

    /// How a to-many's members join the owners `o` (with their identities as `d`), and their
    /// order: stored positions for an ordered one (as objects load them), identities otherwise.
    private static func members(
        of relationship: ModelRelationship, destination: ModelEntity, identities: String, side: DiffSide,
        layout: StoreLayout
    ) -> (join: String, order: String)? {
        let key = layout.keyColumn
        switch layout.storage(of: relationship) {
        case .inverseForeignKey(let owner, let order):
            return (
                "JOIN \(side.stored(layout.table(of: destination))) AS m ON m.\(SQLiteIdentifier.quote(owner)) = o.key"
                    + " JOIN \(identities) AS d ON d.key = m.\(key)",
                order.map { "m.\(SQLiteIdentifier.quote($0)), m.\(key)" } ?? "d.identity"
            )
        case .joinTable(let table, let sourceColumn, let destinationColumn, let order):
            return (
                "JOIN \(side.stored(table)) AS j ON j.\(SQLiteIdentifier.quote(sourceColumn)) = o.key"
                    + " JOIN \(identities) AS d ON d.key = j.\(SQLiteIdentifier.quote(destinationColumn))",
                order.map { "j.\(SQLiteIdentifier.quote($0)), d.key" } ?? "d.identity"
            )
        case .foreignKey, .transient:
            return nil
        }
    }

    /// The next object, or nil after the last.
    func next() throws -> DiffRow? {
        try PersistentStore.sqlite(path) { try readNext() }
    }

    private func readNext() throws -> DiffRow? {
        guard try objects.step() else { return nil }
        let key = objects.int64(1)
        var values = (0..<width).map { column in
            objects.isNull(Int32(column + 2)) ? nil : objects.string(Int32(column + 2))
        }
        for index in toManys.indices {
            var members: [String] = []
            while toManys[index].owner == key {
                let statement = toManys[index].statement
                members.append(statement.string(1))
                toManys[index].owner = try statement.step() ? statement.int64(0) : nil
            }
            values[toManys[index].column] = "[" + members.joined(separator: ", ") + "]"
        }
        return DiffRow(identity: objects.string(0), values: values)
    }
}
