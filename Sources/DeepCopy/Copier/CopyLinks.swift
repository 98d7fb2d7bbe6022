// Which stored links a copy writes, derived from the relationships it follows (CopyPlan.follows):
// to-one columns (with their companion entity columns where the target's layout keeps them), the
// position columns of ordered to-manys kept on their members' table, and join tables — each
// once, whichever side of its pair the plan follows. Each link names its columns in both stores'
// layouts; tables are named by the source root entity's index (maps and tables use the same).
// Invariant: a link is written only where both layouts keep the relationship alike (CopyPlan
// refused models whose relationship storage differs in shape).
import GraphStore

/// A to-one column written by the copy: on the table of the source root `owner`, holding keys of
/// the rows of the source root `destination`.
struct ForeignKeyLink: Hashable {
    let owner: Int
    let sourceColumn: String
    let targetColumn: String
    /// The target's column holding the destination's entity number, when its layout keeps one.
    let targetCompanion: String?
    let destination: Int
}

/// An ordered to-many kept on its members' table (of the source root `members`): the members'
/// owner column (holding keys of the source root `owners`) and position column, in each store.
struct OrderedMemberLink: Hashable {
    let members: Int
    let owners: Int
    let sourceColumn: String
    let sourceOrder: String
    let targetColumn: String
    let targetOrder: String
    /// The entity declaring the relationship, and its name (for progress).
    let entity: String
    let relationship: String
}

/// A position column of a join table, in both stores: the members' position within each group
/// of one owner (the followed side's order) or of one member (the inverse side's).
struct JoinOrder: Hashable {
    let sourceColumn: String
    let targetColumn: String
    /// Whether positions count within each owner (else within each member).
    let byOwner: Bool
}

/// A join table written by the copy: pairs of an owner (a row of the source root `owners`) and a
/// member (of `members`), each in its column of either store's table.
struct JoinTableLink: Hashable {
    let sourceTable: String
    let targetTable: String
    let owners: Int
    let members: Int
    let sourceOwnerColumn: String
    let sourceMemberColumn: String
    let targetOwnerColumn: String
    let targetMemberColumn: String
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
        let (source, sourceLayout, targetLayout) = (plan.source, plan.sourceLayout, plan.targetLayout)
        // A relationship is visited on the entity declaring it, which may be an abstract (or not
        // copied) parent of the copied entities.
        for entity in source.entities where entity.kindIndices.contains(where: { plan.copies(source.entities[$0]) }) {
            for relationship in entity.relationships
            where relationship.declaringEntity == entity.name && plan.follows(relationship) {
                guard let other = plan.targetRelationship(for: relationship) else { continue }
                let destination = source.destination(of: relationship).rootIndex
                let inverse = source.inverse(of: relationship)
                let otherInverse = plan.target.inverse(of: other)
                switch (sourceLayout.storage(of: relationship), targetLayout.storage(of: other)) {
                case (.foreignKey(let sourceColumn), .foreignKey(let targetColumn)):
                    add(
                        ForeignKeyLink(
                            owner: entity.rootIndex, sourceColumn: sourceColumn, targetColumn: targetColumn,
                            targetCompanion: targetLayout.companionColumn(of: other), destination: destination))
                    if let inverse, let otherInverse,
                        case .foreignKey(let sourceBack) = sourceLayout.storage(of: inverse),
                        case .foreignKey(let targetBack) = targetLayout.storage(of: otherInverse)
                    {
                        add(
                            ForeignKeyLink(
                                owner: destination, sourceColumn: sourceBack, targetColumn: targetBack,
                                targetCompanion: targetLayout.companionColumn(of: otherInverse),
                                destination: entity.rootIndex))
                    }
                case (
                    .inverseForeignKey(let sourceColumn, let sourceOrder),
                    .inverseForeignKey(let targetColumn, let targetOrder)
                ):
                    add(
                        ForeignKeyLink(
                            owner: destination, sourceColumn: sourceColumn, targetColumn: targetColumn,
                            targetCompanion: otherInverse.flatMap(targetLayout.companionColumn(of:)),
                            destination: entity.rootIndex))
                    if let sourceOrder, let targetOrder {
                        let link = OrderedMemberLink(
                            members: destination, owners: entity.rootIndex, sourceColumn: sourceColumn,
                            sourceOrder: sourceOrder, targetColumn: targetColumn, targetOrder: targetOrder,
                            entity: entity.name, relationship: relationship.name)
                        if !orderedMembers.contains(link) { orderedMembers.append(link) }
                    }
                case (
                    .joinTable(let sourceTable, let sourceOwner, let sourceMember, let sourceOrder),
                    .joinTable(let targetTable, let targetOwner, let targetMember, let targetOrder)
                ):
                    guard !joinTables.contains(where: { $0.sourceTable == sourceTable }) else { continue }
                    var orders: [JoinOrder] = []
                    if let sourceOrder, let targetOrder {
                        orders.append(JoinOrder(sourceColumn: sourceOrder, targetColumn: targetOrder, byOwner: true))
                    }
                    if let inverse, let otherInverse,
                        case .joinTable(_, _, _, let sourceOrder?) = sourceLayout.storage(of: inverse),
                        case .joinTable(_, _, _, let targetOrder?) = targetLayout.storage(of: otherInverse)
                    {
                        orders.append(JoinOrder(sourceColumn: sourceOrder, targetColumn: targetOrder, byOwner: false))
                    }
                    joinTables.append(
                        JoinTableLink(
                            sourceTable: sourceTable, targetTable: targetTable, owners: entity.rootIndex,
                            members: destination, sourceOwnerColumn: sourceOwner, sourceMemberColumn: sourceMember,
                            targetOwnerColumn: targetOwner, targetMemberColumn: targetMember,
                            orders: orders.sorted { $0.targetColumn < $1.targetColumn }, entity: entity.name,
                            relationship: relationship.name))
                default:
                    continue
                }
            }
        }
    }

    /// The to-one columns written on the table of the source root `owner`.
    func foreignKeys(on owner: Int) -> [ForeignKeyLink] { foreignKeys.filter { $0.owner == owner } }

    private mutating func add(_ link: ForeignKeyLink) {
        if !foreignKeys.contains(link) { foreignKeys.append(link) }
    }
}
