// Which stored links a copy writes, derived from the relationships it follows (CopyPlan.follows):
// to-one columns, the position columns of ordered to-manys kept on their members' table, and
// join tables — each once, whichever side of its pair the plan follows.
// Invariant: every link names tables that exist in both stores with the same layout (CopyPlan
// refused models whose relationship storage differs).
import GraphStore

/// A to-one column written by the copy: on `table`, holding keys of `destination`'s table.
struct ForeignKeyLink: Hashable {
    let table: String
    let column: String
    let destination: String
}

/// An ordered to-many kept on its members' table: the members' owner column and position column.
struct OrderedMemberLink: Hashable {
    let table: String
    let column: String
    let order: String
    let owner: String
    /// The entity declaring the relationship, and its name (for progress).
    let entity: String
    let relationship: String
}

/// An order column of a join table: the members' position within each group of `group` (`src`
/// for the owning side's order, `dst` for the inverse side's).
struct JoinOrder: Hashable {
    let column: String
    let group: String
    var member: String { group == "src" ? "dst" : "src" }
}

/// A join table written by the copy: `src` holds keys of `sourceRoot`'s table, `dst` of `destinationRoot`'s.
struct JoinTableLink: Hashable {
    let table: String
    let sourceRoot: String
    let destinationRoot: String
    let orders: [JoinOrder]
    /// The entity declaring the relationship the copy follows into this table, and its name (for progress).
    let entity: String
    let relationship: String
}

/// Every link a copy writes.
struct CopyLinks {
    private(set) var foreignKeys: [ForeignKeyLink] = []
    private(set) var orderedMembers: [OrderedMemberLink] = []
    private(set) var joinTables: [JoinTableLink] = []

    init(plan: CopyPlan) {
        let source = plan.source
        for entity in source.entities where plan.copies(entity) {
            for relationship in entity.relationships
            where relationship.declaringEntity == entity.name && plan.follows(relationship) {
                let destination = source.destination(of: relationship).tableName
                switch relationship.storage {
                case .foreignKey(let column):
                    add(ForeignKeyLink(table: entity.tableName, column: column, destination: destination))
                    if let inverse = source.inverse(of: relationship), case .foreignKey(let back) = inverse.storage {
                        add(ForeignKeyLink(table: destination, column: back, destination: entity.tableName))
                    }
                case .inverseForeignKey(let column, let order):
                    add(ForeignKeyLink(table: destination, column: column, destination: entity.tableName))
                    if let order {
                        let link = OrderedMemberLink(
                            table: destination, column: column, order: order, owner: entity.tableName,
                            entity: entity.name, relationship: relationship.name)
                        if !orderedMembers.contains(link) { orderedMembers.append(link) }
                    }
                case .joinTable(let table, let sourceColumn, _, _):
                    guard !joinTables.contains(where: { $0.table == table }) else { continue }
                    let ends = sourceColumn == "src" ? (entity.tableName, destination) : (destination, entity.tableName)
                    joinTables.append(
                        JoinTableLink(
                            table: table, sourceRoot: ends.0, destinationRoot: ends.1,
                            orders: Self.orders(of: table, in: plan.target), entity: entity.name,
                            relationship: relationship.name))
                case .transient:
                    continue
                }
            }
        }
    }

    /// The to-one columns written on `table`.
    func foreignKeys(on table: String) -> [ForeignKeyLink] { foreignKeys.filter { $0.table == table } }

    private mutating func add(_ link: ForeignKeyLink) {
        if !foreignKeys.contains(link) { foreignKeys.append(link) }
    }

    /// The order columns of a join table in `model`, from the relationships stored in it.
    private static func orders(of table: String, in model: ObjectModel) -> [JoinOrder] {
        var orders: Set<JoinOrder> = []
        for entity in model.entities {
            for relationship in entity.relationships where relationship.declaringEntity == entity.name {
                if case .joinTable(table, let sourceColumn, _, let order?) = relationship.storage {
                    orders.insert(JoinOrder(column: order, group: sourceColumn))
                }
            }
        }
        return orders.sorted { $0.column < $1.column }
    }
}
