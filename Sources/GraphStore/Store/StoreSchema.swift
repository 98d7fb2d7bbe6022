// The SQL that lays out a store for a model (docs/StoreFormat.md).
// Invariants: the output depends only on the model (same model → same statements, same order);
// every identifier is quoted; index names carry a prefix so they never clash with table names.

/// Generates the tables and indexes of a store.
struct StoreSchema {
    let model: ObjectModel

    /// The store's own bookkeeping tables.
    static let bookkeepingStatements = [
        "CREATE TABLE seedkit_metadata(key TEXT PRIMARY KEY NOT NULL, value)",
        "CREATE TABLE seedkit_entity(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, parent INTEGER)",
    ]

    /// `CREATE TABLE` statements: bookkeeping, one table per root entity, one per join table.
    var tableStatements: [String] {
        Self.bookkeepingStatements
            + model.entities.filter(\.isRoot).map(entityTableStatement)
            + joinTables.map(\.createStatement)
    }

    /// Rows for `seedkit_entity`: id, name, parent id.
    var entityRows: [(id: Int64, name: String, parent: Int64?)] {
        model.entities.map { entity in
            (entity.storeID, entity.name, entity.parentIndex.map { model.entities[$0].storeID })
        }
    }

    /// `CREATE INDEX` statements: foreign keys, unique constraints, indexed attributes, named indexes.
    var indexStatements: [String] {
        var statements: [String] = []
        var seen: Set<String> = []
        func add(_ name: String, table: String, columns: [String], unique: Bool = false, whereClause: String? = nil) {
            guard seen.insert(name.lowercased()).inserted else { return }
            var sql = "CREATE \(unique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(quote(name)) ON \(quote(table))("
            sql += columns.joined(separator: ", ") + ")"
            if let whereClause { sql += " WHERE " + whereClause }
            statements.append(sql)
        }
        for entity in model.entities {
            let table = entity.tableName
            let kindFilter =
                entity.isRoot ? nil : "ent IN (" + entity.kindStoreIDs.map(String.init).joined(separator: ", ") + ")"
            if entity.isRoot && !entity.subentityIndices.isEmpty {
                add("idx_\(table)_ent", table: table, columns: ["ent"])
            }
            for attribute in entity.attributes
            where attribute.declaringEntity == entity.name && attribute.declaration.isIndexed {
                add("idx_\(table)_\(attribute.columnName)", table: table, columns: [quote(attribute.columnName)])
            }
            for relationship in entity.relationships where relationship.declaringEntity == entity.name {
                switch relationship.storage {
                case .foreignKey(let column):
                    add("idx_\(table)_\(column)", table: table, columns: [quote(column)])
                case .inverseForeignKey(let column, let order?):
                    let destination = model.destination(of: relationship).tableName
                    add("idx_\(destination)_\(column)", table: destination, columns: [quote(column), quote(order)])
                default:
                    break
                }
            }
            for constraint in entity.declaration.uniqueConstraints {
                add(
                    "uq_\(entity.name)_" + constraint.joined(separator: "_"), table: table,
                    columns: constraint.map(quote), unique: true, whereClause: kindFilter)
            }
            for index in entity.declaration.indexes {
                let columns = index.elements.map { quote($0.property) + ($0.ascending ? "" : " DESC") }
                add("fx_\(entity.name)_\(index.name)", table: table, columns: columns, whereClause: kindFilter)
            }
        }
        for joinTable in joinTables {
            add("idx_\(joinTable.name)_dst", table: joinTable.name, columns: ["dst", "src"])
        }
        return statements
    }

    /// The columns of a root entity's table after `pk`, `ent`, `opt`: name → SQL type, sorted by name.
    func columns(ofTableFor root: ModelEntity) -> [(name: String, type: String)] {
        var columns: [String: String] = [:]
        let tree = model.entities.filter { $0.rootIndex == root.index }
        for entity in tree {
            for attribute in entity.attributes where !attribute.isTransient {
                columns[attribute.columnName] = attribute.type.sqlType
            }
            for relationship in entity.relationships {
                if case .foreignKey(let column) = relationship.storage { columns[column] = "INTEGER" }
            }
        }
        for entity in model.entities {
            for relationship in entity.relationships where relationship.declaringEntity == entity.name {
                if case .inverseForeignKey(_, let order?) = relationship.storage,
                    model.destination(of: relationship).rootIndex == root.index
                {
                    columns[order] = "INTEGER"
                }
            }
        }
        return columns.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    private func entityTableStatement(_ root: ModelEntity) -> String {
        let definitions =
            ["pk INTEGER PRIMARY KEY", "ent INTEGER NOT NULL", "opt INTEGER NOT NULL"]
            + columns(ofTableFor: root).map { "\(quote($0.name)) \($0.type)" }
        return "CREATE TABLE \(quote(root.tableName))(" + definitions.joined(separator: ", ") + ")"
    }

    /// The join tables, one per owning relationship, in name order.
    var joinTables: [JoinTable] {
        var tables: [String: JoinTable] = [:]
        for entity in model.entities {
            for relationship in entity.relationships where relationship.declaringEntity == entity.name {
                guard case .joinTable(let name, _, _, let order) = relationship.storage else { continue }
                var table = tables[name] ?? JoinTable(name: name, orderColumns: [])
                if let order { table.orderColumns.insert(order) }
                tables[name] = table
            }
        }
        return tables.values.sorted { $0.name < $1.name }
    }

    private func quote(_ identifier: String) -> String {
        SQLiteIdentifier.quote(identifier)
    }
}

/// A join table: `src`, `dst` and position columns for the ordered sides.
struct JoinTable: Hashable {
    let name: String
    var orderColumns: Set<String>

    var createStatement: String {
        let positions = orderColumns.sorted().map { ", \($0) INTEGER" }.joined()
        return "CREATE TABLE \(SQLiteIdentifier.quote(name))(src INTEGER NOT NULL, dst INTEGER NOT NULL\(positions), "
            + "PRIMARY KEY(src, dst)) WITHOUT ROWID"
    }
}
