// The SQL shape of one entity's rows: which columns hold which attribute and to-one slots, and
// the statements that read, insert, update and delete a row.
// Invariants: column lists depend only on the model (deterministic SQL text, so prepared
// statements cache well); every identifier is quoted; bindings are positional in the order
// `storedAttributes` then `foreignKeys`.

/// How an entity's objects map to columns of its root table.
public struct EntityRowLayout: Sendable {
    /// The entity this layout is for.
    public let entityIndex: Int
    /// The root table.
    public let table: String
    /// Attribute slots that are stored (not transient), in slot order.
    public let storedAttributes: [Int]
    /// Relationship slots kept as a foreign-key column on this table, in slot order.
    public let foreignKeys: [Int]
    /// For each stored to-one: whether its destination has sub-entities (the concrete entity
    /// of a destination must then be read from its table).
    public let foreignKeyNeedsEntity: [Bool]
    /// `INSERT INTO table(pk, ent, opt, <data columns>) VALUES (?, ?, ?, …)`.
    public let insertSQL: String
    /// `UPDATE table SET opt = ?, <data columns> = ? … WHERE pk = ?` (the pk binds last).
    public let updateSQL: String
    /// `SELECT opt, <data columns>, <destination entities> FROM table WHERE pk = ?`.
    public let selectSQL: String
    /// `DELETE FROM table WHERE pk = ?`.
    public let deleteSQL: String

    /// The layout of `entity`'s rows.
    public init(entity: ModelEntity, model: ObjectModel) {
        entityIndex = entity.index
        table = entity.tableName
        storedAttributes = entity.attributes.filter { !$0.isTransient }.map(\.index)
        let foreignKeys = entity.relationships.filter {
            if case .foreignKey = $0.storage { return true }
            return false
        }
        self.foreignKeys = foreignKeys.map(\.index)
        foreignKeyNeedsEntity = foreignKeys.map { !model.destination(of: $0).subentityIndices.isEmpty }
        let quotedTable = SQLiteIdentifier.quote(entity.tableName)
        let data = Self.dataColumns(of: entity, attributes: storedAttributes, foreignKeys: self.foreignKeys)
        let insertColumns = ["pk", "ent", "opt"] + data
        insertSQL =
            "INSERT INTO \(quotedTable)(" + insertColumns.joined(separator: ", ") + ") VALUES ("
            + Array(repeating: "?", count: insertColumns.count).joined(separator: ", ") + ")"
        updateSQL =
            "UPDATE \(quotedTable) SET " + (["opt"] + data).map { "\($0) = ?" }.joined(separator: ", ")
            + " WHERE pk = ?"
        deleteSQL = "DELETE FROM \(quotedTable) WHERE pk = ?"
        selectSQL =
            "SELECT "
            + (["opt"] + data
            + Self.destinationEntityColumns(
                of: entity, foreignKeys: self.foreignKeys, needsEntity: foreignKeyNeedsEntity, model: model, alias: nil))
            .joined(separator: ", ") + " FROM \(quotedTable) WHERE pk = ?"
    }

    /// The quoted data columns, attributes then foreign keys.
    public func dataColumns(of entity: ModelEntity) -> [String] {
        Self.dataColumns(of: entity, attributes: storedAttributes, foreignKeys: foreignKeys)
    }

    private static func dataColumns(of entity: ModelEntity, attributes: [Int], foreignKeys: [Int]) -> [String] {
        attributes.map { SQLiteIdentifier.quote(entity.attributes[$0].columnName) }
            + foreignKeys.map { slot in
                guard case .foreignKey(let column) = entity.relationships[slot].storage else { return "NULL" }
                return SQLiteIdentifier.quote(column)
            }
    }

    /// For each to-one whose destination has sub-entities: a subquery giving the destination's `ent`.
    public func destinationEntityColumns(of entity: ModelEntity, model: ObjectModel, alias: String?) -> [String] {
        Self.destinationEntityColumns(
            of: entity, foreignKeys: foreignKeys, needsEntity: foreignKeyNeedsEntity, model: model, alias: alias)
    }

    private static func destinationEntityColumns(
        of entity: ModelEntity, foreignKeys: [Int], needsEntity: [Bool], model: ObjectModel, alias: String?
    ) -> [String] {
        zip(foreignKeys, needsEntity).compactMap { slot, needsEntity in
            guard needsEntity, case .foreignKey(let column) = entity.relationships[slot].storage else { return nil }
            let destination = SQLiteIdentifier.quote(model.destination(of: entity.relationships[slot]).tableName)
            let source = (alias.map { "\($0)." } ?? "") + SQLiteIdentifier.quote(column)
            return "(SELECT ent FROM \(destination) WHERE pk = \(source))"
        }
    }
}
