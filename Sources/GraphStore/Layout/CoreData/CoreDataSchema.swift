// The SQL that lays out a Core Data–layout store as Core Data does (docs/CoreDataStores.md):
// one table per root entity (`Z_PK, Z_ENT, Z_OPT`, then its columns by kind — integers and
// Booleans, to-ones each followed by its companion and position column, dates and floating
// point, decimals, strings, binary — as Core Data orders them), one per many-to-many, the
// indexes Core Data makes (entity column, to-ones, indexed attributes, fetch indexes,
// uniqueness constraints, join tables' reverse direction), and `Z_PRIMARYKEY` and `Z_METADATA`.
// No `Z_MODELCACHE`: Core Data does without it (older stores lack it) and writes it itself.
// Invariants: the output depends only on the model (same model → same statements, same order);
// names are Core Data's bare upper-case identifiers (quoted only if a model name needs it).

extension CoreDataLayout {
    /// `Z_PRIMARYKEY` and `Z_METADATA`, exactly as Core Data creates them.
    static let fixedTableStatements = [
        "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
        "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
    ]

    package func createSchema(
        of layout: StoreLayout, metadata: StoreMetadata, indexes: Bool, on connection: SQLiteConnection
    ) throws {
        for statement in tableStatements(of: layout) {
            try connection.execute(statement)
        }
        if indexes {
            for statement in indexStatements(of: layout) {
                try connection.execute(statement)
            }
        }
        for statement in Self.fixedTableStatements {
            try connection.execute(statement)
        }
        let numbers = Self.entityNumbers(of: layout.model)
        let insert = try connection.prepare(
            "INSERT INTO Z_PRIMARYKEY(Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)")
        for entity in layout.model.entities.sorted(by: { numbers[$0.index] < numbers[$1.index] }) {
            insert.bind(numbers[entity.index], at: 1)
            insert.bind(text: entity.name, at: 2)
            insert.bind(entity.parentIndex.map { numbers[$0] } ?? 0, at: 3)
            try insert.execute()
        }
        try createMetadata(for: layout.model, metadata: metadata, on: connection)
    }

    /// `CREATE TABLE` statements of the entity tables (in entity-number order), then the join tables.
    func tableStatements(of layout: StoreLayout) -> [String] {
        let numbers = Self.entityNumbers(of: layout.model)
        let roots = layout.roots.sorted { numbers[$0.index] < numbers[$1.index] }
        let entityTables = roots.map { root in
            let columns =
                ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"]
                + tableColumns(ofRoot: root, layout: layout, numbers: numbers).map {
                    "\(Self.name($0.name)) \($0.type)"
                }
            return "CREATE TABLE \(Self.name(layout.table(of: root))) ( " + columns.joined(separator: ", ") + " )"
        }
        let joinTables = layout.joinTables.map { table in
            let keys = [table.firstColumn, table.secondColumn].map(Self.name)
            let columns = keys.map { "\($0) INTEGER" } + table.orders.map { "\(Self.name($0.column)) INTEGER" }
            return "CREATE TABLE \(Self.name(table.name)) ( " + columns.joined(separator: ", ")
                + ", PRIMARY KEY (" + keys.joined(separator: ", ") + ") )"
        }
        return entityTables + joinTables
    }

    /// The columns of `root`'s table after `Z_PK, Z_ENT, Z_OPT`, in Core Data's order: by kind
    /// (integers, then to-ones with their companion and position columns, then dates and
    /// floating point, decimals, strings, binary), each kind in the order the columns were named.
    func tableColumns(ofRoot root: ModelEntity, layout: StoreLayout, numbers: [Int64])
        -> [(name: String, type: String)]
    {
        var kinds: [[(name: String, type: String)]] = Array(repeating: [], count: 6)
        for entity in Self.hierarchy(of: root, in: layout.model, numbers: numbers) {
            for property in Self.ownColumnProperties(of: entity) {
                if let attribute = property.attribute {
                    let (kind, type) = Self.columnKind(of: attribute.type)
                    kinds[kind].append((layout.column(of: attribute), type))
                } else if let toOne = property.toOne, case .foreignKey(let column) = layout.storage(of: toOne) {
                    kinds[1].append((column, "INTEGER"))
                    if let companion = layout.companionColumn(of: toOne) { kinds[1].append((companion, "INTEGER")) }
                    if let inverse = layout.model.inverse(of: toOne), inverse.isOrdered,
                        case .inverseForeignKey(_, let order?) = layout.storage(of: inverse)
                    {
                        kinds[1].append((order, "INTEGER"))
                    }
                }
            }
        }
        return kinds.flatMap { $0 }
    }

    /// The kind (its place in the column order) and SQL type of an attribute type's column.
    static func columnKind(of type: AttributeType) -> (kind: Int, type: String) {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: (0, "INTEGER")
        case .date: (2, "TIMESTAMP")
        case .double, .float: (2, "FLOAT")
        case .decimal: (3, "DECIMAL")
        case .string, .uri: (4, "VARCHAR")
        case .binary, .uuid, .transformable: (5, "BLOB")
        }
    }

    /// `CREATE INDEX IF NOT EXISTS` statements, as Core Data names them: per table the entity
    /// column (when it holds several entities), the to-ones and the indexed attributes; per entity
    /// its fetch indexes and uniqueness constraints; per join table the reverse direction.
    package func indexStatements(of layout: StoreLayout) -> [String] {
        let model = layout.model
        let numbers = Self.entityNumbers(of: model)
        var statements: [String] = []
        func add(_ name: String, table: String, columns: [String], unique: Bool = false) {
            statements.append(
                "CREATE \(unique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(Self.name(name)) ON \(Self.name(table)) ("
                    + columns.joined(separator: ", ") + ")")
        }
        for root in layout.roots.sorted(by: { numbers[$0.index] < numbers[$1.index] }) {
            let table = layout.table(of: root)
            let hierarchy = Self.hierarchy(of: root, in: model, numbers: numbers)
            if hierarchy.count > 1 { add("\(table)_Z_ENT_INDEX", table: table, columns: ["Z_ENT"]) }
            for entity in hierarchy {
                for property in Self.ownColumnProperties(of: entity) {
                    let column: String
                    if let attribute = property.attribute, attribute.declaration.isIndexed {
                        column = layout.column(of: attribute)
                    } else if let toOne = property.toOne, case .foreignKey(let foreignKey) = layout.storage(of: toOne) {
                        column = foreignKey
                    } else {
                        continue
                    }
                    add("\(table)_\(column)_INDEX", table: table, columns: [Self.name(column)])
                }
            }
        }
        for entity in model.entities.sorted(by: { numbers[$0.index] < numbers[$1.index] }) {
            let table = layout.table(of: entity)
            for index in entity.declaration.indexes where !Self.isCoveredByForeignKey(index, of: entity, in: layout) {
                let columns = index.elements.map { element in
                    Self.name(layout.column(ofProperty: element.property, in: entity) ?? element.property)
                        + " COLLATE BINARY " + (element.ascending ? "ASC" : "DESC")
                }
                add("Z_\(entity.name)_\(index.name)", table: table, columns: columns)
            }
            for constraint in entity.declaration.uniqueConstraints {
                let columns = constraint.map {
                    Self.name(layout.column(ofProperty: $0, in: entity) ?? $0) + " COLLATE BINARY ASC"
                }
                add(
                    "Z_\(entity.name)_UNIQUE_" + constraint.joined(separator: "_"), table: table, columns: columns,
                    unique: true)
            }
        }
        for table in layout.joinTables {
            add(
                "\(table.name)_\(table.secondColumn)_INDEX", table: table.name,
                columns: [table.secondColumn, table.firstColumn].map(Self.name))
        }
        return statements
    }

    /// Whether a fetch index is one ascending element on a to-one: Core Data makes no index for
    /// it (the to-one's own index is the same).
    static func isCoveredByForeignKey(_ index: IndexDescription, of entity: ModelEntity, in layout: StoreLayout) -> Bool
    {
        guard index.elements.count == 1, let element = index.elements.first, element.ascending,
            let relationship = entity.relationship(named: element.property)
        else { return false }
        if case .foreignKey = layout.storage(of: relationship) { return true }
        return false
    }

    /// Whether the database is a Core Data–layout store: it has `Z_PRIMARYKEY` and `Z_METADATA`.
    package func recognizes(_ connection: SQLiteConnection) throws -> Bool {
        let tables = try connection.prepare(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('Z_PRIMARYKEY', 'Z_METADATA')")
        return try tables.step() && tables.int64(0) == 2
    }

    /// `name` as it appears in SQL: bare, as Core Data writes it, unless it holds characters an
    /// identifier cannot.
    static func name(_ name: String) -> String {
        let plain = name.utf8.allSatisfy {
            ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95
        }
        return plain && !name.isEmpty && !(name.utf8.first.map { $0 >= 48 && $0 <= 57 } ?? true)
            ? name : SQLiteIdentifier.quote(name)
    }
}
