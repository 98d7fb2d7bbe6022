// SeedKit's own store layout (docs/StoreFormat.md): one table per root entity named after it
// with `pk`, `ent` and `opt` columns, a column per attribute and to-one named after the property,
// entity numbers in entity-name order from 1, ordered to-manys kept by their inverse's column
// plus `<inverse>_position`, many-to-manys and inverse-less to-manys in `Entity_relationship`
// join tables (`src`, `dst`, `position`, `inverse_position`), dates as seconds since 1970,
// decimals as exact text, keys above max(pk), metadata in `seedkit_metadata`, the run journal in
// `seedkit_undo` and the seed record of a table `T` in `seedkit_seed_T`.
// The naming rules here are also what the model validator checks names against (a model must
// fit SeedKit's layout, the default one).

/// The rules of SeedKit's own layout.
package struct SeedKitLayout: StoreLayoutRules {
    package let name = "seedkit"
    package let keyColumn = "pk"
    package let entityColumn = "ent"
    package let versionColumn = "opt"
    package let values = ValueEncoding(dates: .unix, decimals: .exactText)
    package let reservedPrefix = "seedkit_"
    package let journalTable = "seedkit_undo"

    /// The layout's fixed column names, which no property may use (compared case-insensitively).
    static let reservedColumns: Set<String> = ["pk", "ent", "opt"]
    /// A join table's key columns: the owning side's owners and members.
    private static let firstJoinColumn = "src"
    private static let secondJoinColumn = "dst"

    package init() {}

    /// `seedkit_seed_T`: the seed record of the table `T`.
    package func seedRecordTable(of table: String) -> String {
        reservedPrefix + "seed_" + table
    }

    /// The position column that an ordered to-many adds beside its inverse's foreign key.
    static func orderColumn(forInverse inverseName: String) -> String {
        inverseName + "_position"
    }

    /// The join table a relationship owns: `Entity_relationship`.
    static func joinTableName(entity: String, relationship: String) -> String {
        entity + "_" + relationship
    }

    /// Whether `relationship` (declared on `entity`) owns a join table.
    ///
    /// A to-many without an inverse owns one. Of a many-to-many pair, the ordered side owns it
    /// when exactly one side is ordered, otherwise the side whose `(entity, name)` sorts first.
    static func ownsJoinTable(
        _ relationship: RelationshipDescription, entity: String,
        inverse: (entity: String, relationship: RelationshipDescription)?
    ) -> Bool {
        guard relationship.isToMany, !relationship.isTransient else { return false }
        guard let inverse else { return true }
        guard inverse.relationship.isToMany else { return false }
        if relationship.isOrdered != inverse.relationship.isOrdered {
            return relationship.isOrdered
        }
        return (entity, relationship.name) < (inverse.entity, inverse.relationship.name)
    }

    // MARK: - Names

    package func names(for model: ObjectModel) -> LayoutNames {
        let kept = model.entities.map { entity in
            entity.relationships.map { storage(of: $0, model: model) }
        }
        return LayoutNames(
            entityNumbers: model.entities.map { Int64($0.index + 1) },
            tables: model.entities.map { model.root(of: $0).name },
            attributeColumns: model.entities.map { $0.attributes.map(\.name) },
            relationshipStorage: kept,
            companionColumns: model.entities.map { $0.relationships.map { _ in nil } },
            joinTables: joinTables(of: model, storage: kept))
    }

    /// How `relationship` is kept (docs/StoreFormat.md "Join tables").
    private func storage(of relationship: ModelRelationship, model: ObjectModel) -> RelationshipStorage {
        if relationship.isTransient { return .transient }
        if !relationship.isToMany { return .foreignKey(column: relationship.name) }
        let inverse = model.inverse(of: relationship)
        if let inverse, !inverse.isToMany {
            let order = relationship.isOrdered ? Self.orderColumn(forInverse: inverse.name) : nil
            return .inverseForeignKey(column: inverse.name, orderColumn: order)
        }
        let inverseDeclaration = inverse.map { ($0.declaringEntity, $0.declaration) }
        if Self.ownsJoinTable(
            relationship.declaration, entity: relationship.declaringEntity, inverse: inverseDeclaration)
        {
            let table = Self.joinTableName(entity: relationship.declaringEntity, relationship: relationship.name)
            let order: String? = relationship.isOrdered ? "position" : nil
            return .joinTable(
                table: table, sourceColumn: Self.firstJoinColumn, destinationColumn: Self.secondJoinColumn,
                orderColumn: order)
        }
        // The inverse owns the join table: read it from the other end.
        let table = Self.joinTableName(entity: inverse?.declaringEntity ?? "", relationship: inverse?.name ?? "")
        let order: String? = relationship.isOrdered ? "inverse_position" : nil
        return .joinTable(
            table: table, sourceColumn: Self.secondJoinColumn, destinationColumn: Self.firstJoinColumn,
            orderColumn: order)
    }

    /// One join table per owning relationship, with the order columns of both sides, in name order.
    private func joinTables(of model: ObjectModel, storage: [[RelationshipStorage]]) -> [JoinTableLayout] {
        var ends: [String: (first: Int, second: Int)] = [:]
        var orders: [String: Set<JoinTableLayout.Order>] = [:]
        for entity in model.entities {
            for relationship in entity.relationships where relationship.declaringEntity == entity.name {
                guard case .joinTable(let table, let source, _, let order) = storage[entity.index][relationship.index]
                else { continue }
                if source == Self.firstJoinColumn {
                    ends[table] = (entity.rootIndex, model.destination(of: relationship).rootIndex)
                }
                if let order { orders[table, default: []].insert(.init(column: order, ownerColumn: source)) }
            }
        }
        return ends.keys.sorted().compactMap { name in
            guard let end = ends[name] else { return nil }
            return JoinTableLayout(
                name: name, firstColumn: Self.firstJoinColumn, secondColumn: Self.secondJoinColumn,
                firstRootIndex: end.first, secondRootIndex: end.second,
                orders: (orders[name] ?? []).sorted { $0.column < $1.column })
        }
    }

    // MARK: - Keys

    package func highestKey(ofRoot root: ModelEntity, in layout: StoreLayout, on connection: SQLiteConnection) throws
        -> Int64
    {
        let statement = try connection.cachedStatement(
            "SELECT coalesce(max(pk), 0) FROM \(SQLiteIdentifier.quote(layout.table(of: root)))")
        defer { statement.reset() }
        return try statement.step() ? statement.int64(0) : 0
    }

    /// Nothing to do: SeedKit's layout keeps no key counter (the highest key is max(pk)).
    package func coverKeys(ofRoot root: ModelEntity, in layout: StoreLayout, on connection: SQLiteConnection) throws {}
}
