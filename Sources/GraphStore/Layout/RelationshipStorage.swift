// How a store layout keeps a relationship: a foreign-key column, the inverse's column on the
// destination's table (plus a position column when ordered), or a join table. A layout answers
// this per relationship (StoreLayout.storage(of:)); the model itself says nothing about columns.

/// How a store keeps one relationship (docs/StoreFormat.md).
package enum RelationshipStorage: Sendable, Hashable {
    /// A to-one kept as an integer column (the destination's key) on the source's root table.
    case foreignKey(column: String)
    /// A to-many whose inverse is a to-one: the inverse's column on the destination's root table,
    /// plus a position column there when the to-many is ordered.
    case inverseForeignKey(column: String, orderColumn: String?)
    /// A many-to-many, or a to-many without an inverse: a join table with a column for this
    /// side's owners and one for its members, plus a position column for this side's order.
    case joinTable(table: String, sourceColumn: String, destinationColumn: String, orderColumn: String?)
    /// A transient relationship: never stored.
    case transient

    /// The shape of the storage without its names: two layouts keep a relationship alike when
    /// their shapes are equal, whatever they call tables and columns.
    package enum Shape: Sendable, Hashable {
        case foreignKey
        case inverseForeignKey(ordered: Bool)
        case joinTable(ordered: Bool)
        case transient
    }

    /// The storage's shape.
    package var shape: Shape {
        switch self {
        case .foreignKey: .foreignKey
        case .inverseForeignKey(_, let order): .inverseForeignKey(ordered: order != nil)
        case .joinTable(_, _, _, let order): .joinTable(ordered: order != nil)
        case .transient: .transient
        }
    }
}

/// One join table of a layout: its two key columns, the root entities whose keys they hold,
/// and the position columns of the ordered sides stored in it.
package struct JoinTableLayout: Sendable, Hashable {
    /// A position column, and the key column whose groups it orders (the owners of that side).
    package struct Order: Sendable, Hashable {
        /// The position column.
        package let column: String
        /// The key column of the owners it orders members within.
        package let ownerColumn: String

        /// The position column `column`, ordering members within each owner of `ownerColumn`.
        package init(column: String, ownerColumn: String) {
            self.column = column
            self.ownerColumn = ownerColumn
        }
    }

    /// The table's name.
    package let name: String
    /// The first key column (the owning side's owners), a bare SQL identifier.
    package let firstColumn: String
    /// The second key column (the owning side's members), a bare SQL identifier.
    package let secondColumn: String
    /// The index of the root entity whose keys `firstColumn` holds.
    package let firstRootIndex: Int
    /// The index of the root entity whose keys `secondColumn` holds.
    package let secondRootIndex: Int
    /// The position columns, sorted by name.
    package let orders: [Order]

    /// A join table `name` whose `firstColumn` holds keys of the root entity at `firstRootIndex`
    /// and `secondColumn` those of the one at `secondRootIndex`.
    package init(
        name: String, firstColumn: String, secondColumn: String, firstRootIndex: Int, secondRootIndex: Int,
        orders: [Order]
    ) {
        self.name = name
        self.firstColumn = firstColumn
        self.secondColumn = secondColumn
        self.firstRootIndex = firstRootIndex
        self.secondRootIndex = secondRootIndex
        self.orders = orders
    }
}
