// The SQL that lays out a SeedKit-layout store (docs/StoreFormat.md): bookkeeping tables
// (`seedkit_metadata`, `seedkit_entity`), one table per root entity, one per join table, and the
// indexes (foreign keys, unique constraints, indexed attributes, named indexes).
// Invariants: the output depends only on the model (same model → same statements, same order,
// so builds are byte-reproducible); every model name is quoted; index names carry a prefix so
// they never clash with table names.

extension SeedKitLayout {
    /// The store's own bookkeeping tables.
    private static let bookkeepingStatements = [
        "CREATE TABLE seedkit_metadata(key TEXT PRIMARY KEY NOT NULL, value)",
        "CREATE TABLE seedkit_entity(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, parent INTEGER)",
    ]

    package func createSchema(
        of layout: StoreLayout, metadata: StoreMetadata, indexes: Bool, on connection: SQLiteConnection
    ) throws {
        for statement in tableStatements(of: layout) {
            try connection.execute(statement)
        }
        let insert = try connection.prepare("INSERT INTO seedkit_entity(id, name, parent) VALUES (?, ?, ?)")
        for entity in layout.model.entities {
            insert.bind(layout.number(of: entity), at: 1)
            insert.bind(text: entity.name, at: 2)
            if let parent = entity.parentIndex {
                insert.bind(layout.number(of: layout.model.entities[parent]), at: 3)
            } else {
                insert.bindNull(at: 3)
            }
            try insert.execute()
        }
        if indexes {
            for statement in indexStatements(of: layout) {
                try connection.execute(statement)
            }
        }
        try writeMetadata(metadata.values, on: connection)
    }

    /// `CREATE TABLE` statements: bookkeeping, one table per root entity, one per join table.
    private func tableStatements(of layout: StoreLayout) -> [String] {
        Self.bookkeepingStatements + layout.roots.map { entityTableStatement($0, layout: layout) }
            + layout.joinTables.map(joinTableStatement)
    }

    private func entityTableStatement(_ root: ModelEntity, layout: StoreLayout) -> String {
        let definitions =
            ["pk INTEGER PRIMARY KEY", "ent INTEGER NOT NULL", "opt INTEGER NOT NULL"]
            + layout.dataColumns(ofRoot: root).map { "\(quote($0.name)) \(Self.sqlType($0.content))" }
        return "CREATE TABLE \(quote(layout.table(of: root)))(" + definitions.joined(separator: ", ") + ")"
    }

    /// A join table: `src`, `dst` and position columns for the ordered sides.
    private func joinTableStatement(_ table: JoinTableLayout) -> String {
        let positions = table.orders.map { ", \($0.column) INTEGER" }.joined()
        return "CREATE TABLE \(quote(table.name))(src INTEGER NOT NULL, dst INTEGER NOT NULL\(positions), "
            + "PRIMARY KEY(src, dst)) WITHOUT ROWID"
    }

    private static func sqlType(_ content: StoreLayout.ColumnContent) -> String {
        switch content {
        case .attribute(let type): type.sqlType
        case .reference, .position: "INTEGER"
        }
    }

    /// `CREATE INDEX` statements: foreign keys, unique constraints, indexed attributes, named indexes.
    package func indexStatements(of layout: StoreLayout) -> [String] {
        let model = layout.model
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
            let table = layout.table(of: entity)
            let kindFilter = entity.isRoot ? nil : "ent IN (" + layout.kindList(of: entity) + ")"
            if entity.isRoot && !entity.subentityIndices.isEmpty {
                add("idx_\(table)_ent", table: table, columns: ["ent"])
            }
            for attribute in entity.attributes
            where attribute.declaringEntity == entity.name && attribute.declaration.isIndexed {
                let column = layout.column(of: attribute)
                add("idx_\(table)_\(column)", table: table, columns: [quote(column)])
            }
            for relationship in entity.relationships where relationship.declaringEntity == entity.name {
                switch layout.storage(of: relationship) {
                case .foreignKey(let column):
                    add("idx_\(table)_\(column)", table: table, columns: [quote(column)])
                case .inverseForeignKey(let column, let order?):
                    let destination = layout.table(of: model.destination(of: relationship))
                    add("idx_\(destination)_\(column)", table: destination, columns: [quote(column), quote(order)])
                default:
                    break
                }
            }
            for constraint in entity.declaration.uniqueConstraints {
                let columns = constraint.map { quote(layout.column(ofProperty: $0, in: entity) ?? $0) }
                add(
                    "uq_\(entity.name)_" + constraint.joined(separator: "_"), table: table, columns: columns,
                    unique: true, whereClause: kindFilter)
            }
            for index in entity.declaration.indexes {
                let columns = index.elements.map { element in
                    quote(layout.column(ofProperty: element.property, in: entity) ?? element.property)
                        + (element.ascending ? "" : " DESC")
                }
                add("fx_\(entity.name)_\(index.name)", table: table, columns: columns, whereClause: kindFilter)
            }
        }
        for joinTable in layout.joinTables {
            add("idx_\(joinTable.name)_dst", table: joinTable.name, columns: ["dst", "src"])
        }
        return statements
    }

    /// Whether the database is a SeedKit-layout store: it has the `seedkit_metadata` table.
    package func recognizes(_ connection: SQLiteConnection) throws -> Bool {
        let exists = try connection.prepare(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'seedkit_metadata'")
        return try exists.step()
    }

    private func quote(_ identifier: String) -> String {
        SQLiteIdentifier.quote(identifier)
    }
}
