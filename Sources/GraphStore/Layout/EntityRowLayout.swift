// The SQL shape of one entity's rows in a layout: which columns hold which attribute and to-one
// slots, and the statements that read, insert, update and delete a row.
// Invariants: column lists depend only on the model and the layout (deterministic SQL text, so
// prepared statements cache well); every table and data column is quoted; bindings are
// positional in the order `storedAttributes`, then `foreignKeys`, then the companions of those
// to-ones that have one.

/// How an entity's objects map to columns of its root table.
package struct EntityRowLayout: Sendable {
    /// The entity this layout is for.
    package let entityIndex: Int
    /// Attribute slots that are stored (not transient), in slot order.
    package let storedAttributes: [Int]
    /// Relationship slots kept as a foreign-key column on this table, in slot order.
    package let foreignKeys: [Int]
    /// For each stored to-one: whether its destination has sub-entities (the concrete entity
    /// of a destination must then be read with the key).
    package let foreignKeyNeedsEntity: [Bool]
    /// For each stored to-one: the quoted column holding its destination's entity number, when
    /// the layout keeps one beside the key (written with the row, read instead of a subquery).
    package let companionColumns: [String?]
    /// The quoted data columns, attributes then foreign keys.
    package let dataColumns: [String]
    /// `INSERT INTO table(key, entity, version, <data columns>, <companions>) VALUES (?, ?, ?, …)`.
    package let insertSQL: String
    /// `UPDATE table SET version = ?, <data columns> = ? …, <companions> = ? … WHERE key = ?` (the key binds last).
    package let updateSQL: String
    /// `SELECT version, <data columns>, <destination entities> FROM table WHERE key = ?`.
    package let selectSQL: String
    /// `DELETE FROM table WHERE key = ?`.
    package let deleteSQL: String
    /// How each to-one whose destination has sub-entities gives that destination's entity number.
    private let destinationEntities: [DestinationEntity]

    /// The entity number of a to-one's destination: the layout's companion column beside the
    /// key, or a subquery on the destination's table (all names quoted).
    private struct DestinationEntity: Sendable {
        let foreignKey: String
        let companion: String?
        let table: String
        let keyColumn: String
        let entityColumn: String

        func sql(alias: String?) -> String {
            let prefix = alias.map { "\($0)." } ?? ""
            if let companion { return prefix + companion }
            return "(SELECT \(entityColumn) FROM \(table) WHERE \(keyColumn) = \(prefix + foreignKey))"
        }
    }

    /// The layout of `entity`'s rows under `names`.
    init(entity: ModelEntity, model: ObjectModel, names: LayoutNames, rules: any StoreLayoutRules) {
        let quote = SQLiteIdentifier.quote
        entityIndex = entity.index
        storedAttributes = entity.attributes.filter { !$0.isTransient }.map(\.index)
        let storage = names.relationshipStorage[entity.index]
        let foreignKeys = entity.relationships.filter {
            if case .foreignKey = storage[$0.index] { return true }
            return false
        }
        self.foreignKeys = foreignKeys.map(\.index)
        foreignKeyNeedsEntity = foreignKeys.map { !model.destination(of: $0).subentityIndices.isEmpty }
        companionColumns = foreignKeys.map { names.companionColumns[entity.index][$0.index].map(quote) }
        dataColumns =
            storedAttributes.map { quote(names.attributeColumns[entity.index][$0]) }
            + foreignKeys.map { relationship in
                guard case .foreignKey(let column) = storage[relationship.index] else { return "NULL" }
                return quote(column)
            }
        let written = dataColumns + companionColumns.compactMap { $0 }
        let quotedTable = quote(names.tables[entity.index])
        let key = rules.keyColumn
        let version = rules.versionColumn
        let insertColumns = [key, rules.entityColumn, version] + written
        insertSQL =
            "INSERT INTO \(quotedTable)(" + insertColumns.joined(separator: ", ") + ") VALUES ("
            + Array(repeating: "?", count: insertColumns.count).joined(separator: ", ") + ")"
        updateSQL =
            "UPDATE \(quotedTable) SET " + ([version] + written).map { "\($0) = ?" }.joined(separator: ", ")
            + " WHERE \(key) = ?"
        deleteSQL = "DELETE FROM \(quotedTable) WHERE \(key) = ?"
        let foreignKeyColumns = dataColumns.suffix(foreignKeys.count)
        destinationEntities = foreignKeys.indices.compactMap { [foreignKeyNeedsEntity, companionColumns] position in
            guard foreignKeyNeedsEntity[position] else { return nil }
            return DestinationEntity(
                foreignKey: foreignKeyColumns[foreignKeyColumns.startIndex + position],
                companion: companionColumns[position],
                table: quote(names.tables[foreignKeys[position].destinationIndex]), keyColumn: key,
                entityColumn: rules.entityColumn)
        }
        selectSQL =
            "SELECT "
            + ([version] + dataColumns + destinationEntities.map { $0.sql(alias: nil) }).joined(separator: ", ")
            + " FROM \(quotedTable) WHERE \(key) = ?"
    }

    /// The number of values an insert binds after the key, entity and version.
    package var writtenColumnCount: Int {
        dataColumns.count + companionColumns.count { $0 != nil }
    }

    /// For each to-one whose destination has sub-entities, the SQL giving the destination's
    /// entity number: its companion column, or a subquery on the destination's table. `alias`
    /// qualifies this table's columns.
    package func destinationEntityColumns(alias: String?) -> [String] {
        destinationEntities.map { $0.sql(alias: alias) }
    }
}
