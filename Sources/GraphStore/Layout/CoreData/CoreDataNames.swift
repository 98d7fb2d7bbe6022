// The names Core Data gives a model's store (docs/CoreDataStores.md "Tables"):
// - entity numbers: root entities in case-insensitive name order, each followed at once by its
//   sub-entities in pre-order (siblings in the same order);
// - one table per root entity, `Z` + its upper-cased name, shared by its sub-entities;
// - a column per stored attribute and to-one, `Z` + the upper-cased property name, with a
//   numeric suffix (`ZNAME1`, `ZNAME2`) when two properties of the table's entities clash —
//   the entity numbered first (then the name sorting first) keeps the plain name;
// - beside a to-one whose destination has sub-entities, `Z<destination number>_<NAME>` holding
//   the destination row's entity number; an ordered to-many whose inverse is a to-one keeps its
//   members' positions in `Z_FOK_<NAME>` beside that to-one's column;
// - a many-to-many in a join table `Z_<number of E><NAME>`, named after the side R (on entity E)
//   whose entity's name sorts first; each side X (on entity E, inverse X′ on D) has its owners in
//   `Z_<number of E><X′ NAME>` and its members in `Z_<number of D><X NAME>`, and when ordered
//   the members' positions in `Z_FOK_<number of D><X NAME>`. With both sides on one entity,
//   which side names the table is read from the file (a template or the store being read).
// Invariant: every name depends only on the model and, for a many-to-many on one entity, on the
// file's tables.

extension CoreDataLayout {
    /// The entity numbers of Core Data's own entities (persistent history) start here; a model's are below.
    static let firstFrameworkEntity: Int64 = 16000

    package func names(for model: ObjectModel) -> LayoutNames {
        let numbers = Self.entityNumbers(of: model)
        let columns = Self.propertyColumns(of: model, numbers: numbers)
        var storage = model.entities.map { $0.relationships.map { _ in RelationshipStorage.transient } }
        var companions = model.entities.map { $0.relationships.map { _ in String?.none } }
        var joinTables: [String: JoinTableLayout] = [:]
        for entity in model.entities {
            for relationship in entity.relationships {
                storage[entity.index][relationship.index] = self.storage(
                    of: relationship, model: model, numbers: numbers, columns: columns, joinTables: &joinTables)
                if case .foreignKey(let column) = storage[entity.index][relationship.index] {
                    let destination = model.destination(of: relationship)
                    if !destination.subentityIndices.isEmpty {
                        companions[entity.index][relationship.index] =
                            "Z\(numbers[destination.index])_" + column.dropFirst()
                    }
                }
            }
        }
        return LayoutNames(
            entityNumbers: numbers,
            tables: model.entities.map { Self.table(of: model.root(of: $0)) },
            attributeColumns: columns.attributes,
            relationshipStorage: storage,
            companionColumns: companions,
            joinTables: joinTables.keys.sorted().compactMap { joinTables[$0] })
    }

    /// `Z` + the upper-cased name of a root entity.
    static func table(of root: ModelEntity) -> String {
        "Z" + root.name.uppercased()
    }

    /// Whether `left` sorts before `right` the way Core Data orders entity names (case-insensitively).
    static func precedes(_ left: String, _ right: String) -> Bool {
        let (lower, upper) = (left.lowercased(), right.lowercased())
        return lower != upper ? lower < upper : left < right
    }

    /// Each entity's number, by entity index.
    static func entityNumbers(of model: ObjectModel) -> [Int64] {
        var numbers = [Int64](repeating: 0, count: model.entities.count)
        var next: Int64 = 1
        func visit(_ entity: ModelEntity) {
            numbers[entity.index] = next
            next += 1
            let children = entity.subentityIndices.map { model.entities[$0] }.sorted { precedes($0.name, $1.name) }
            for child in children { visit(child) }
        }
        for root in model.entities.filter(\.isRoot).sorted(by: { precedes($0.name, $1.name) }) {
            visit(root)
        }
        return numbers
    }

    /// The entities of the table of `root`, in number order.
    static func hierarchy(of root: ModelEntity, in model: ObjectModel, numbers: [Int64]) -> [ModelEntity] {
        model.entities.filter { $0.rootIndex == root.index }.sorted { numbers[$0.index] < numbers[$1.index] }
    }

    /// An entity's own stored attributes and to-ones, in the order their columns are named.
    static func ownColumnProperties(of entity: ModelEntity)
        -> [(name: String, attribute: ModelAttribute?, toOne: ModelRelationship?)]
    {
        let attributes = entity.attributes.filter { $0.declaringEntity == entity.name && !$0.isTransient }
            .map { (name: $0.name, attribute: Optional($0), toOne: ModelRelationship?.none) }
        let toOnes = entity.relationships.filter {
            $0.declaringEntity == entity.name && !$0.isTransient && !$0.isToMany
        }.map { (name: $0.name, attribute: ModelAttribute?.none, toOne: Optional($0)) }
        return (attributes + toOnes).sorted { $0.name < $1.name }
    }

    /// The columns of attributes and to-ones, by entity index and slot.
    struct PropertyColumns {
        /// Each attribute's column (a transient one's names no real column).
        var attributes: [[String]]
        /// Each to-one's column; nil for to-manys and transient relationships.
        var toOnes: [[String?]]
    }

    /// Names every stored attribute and to-one column, table by table.
    static func propertyColumns(of model: ObjectModel, numbers: [Int64]) -> PropertyColumns {
        var columns = PropertyColumns(
            attributes: model.entities.map { $0.attributes.map { "Z" + $0.name.uppercased() } },
            toOnes: model.entities.map { $0.relationships.map { _ in nil } })
        for root in model.entities where root.isRoot {
            var used: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]
            for entity in hierarchy(of: root, in: model, numbers: numbers) {
                for property in ownColumnProperties(of: entity) {
                    let base = "Z" + property.name.uppercased()
                    var column = base
                    var suffix = 1
                    while used.contains(column) {
                        column = base + String(suffix)
                        suffix += 1
                    }
                    used.insert(column)
                    if let attribute = property.attribute { columns.attributes[entity.index][attribute.index] = column }
                    if let toOne = property.toOne { columns.toOnes[entity.index][toOne.index] = column }
                }
            }
        }
        // Sub-entities use their ancestors' names for inherited properties.
        for entity in model.entities {
            for attribute in entity.attributes where attribute.declaringEntityIndex != entity.index {
                columns.attributes[entity.index][attribute.index] =
                    columns.attributes[attribute.declaringEntityIndex][attribute.index]
            }
            for relationship in entity.relationships where relationship.declaringEntityIndex != entity.index {
                columns.toOnes[entity.index][relationship.index] =
                    columns.toOnes[relationship.declaringEntityIndex][relationship.index]
            }
        }
        return columns
    }

    /// How `relationship` is kept; join tables are added to `joinTables` as they are met.
    private func storage(
        of relationship: ModelRelationship, model: ObjectModel, numbers: [Int64], columns: PropertyColumns,
        joinTables: inout [String: JoinTableLayout]
    ) -> RelationshipStorage {
        if relationship.isTransient { return .transient }
        if !relationship.isToMany {
            return .foreignKey(column: columns.toOnes[relationship.declaringEntityIndex][relationship.index] ?? "")
        }
        // A to-many without an inverse: Core Data's layout for it is not known (problems(storing:) says so).
        guard let inverse = model.inverse(of: relationship) else { return .transient }
        if !inverse.isToMany {
            let column = columns.toOnes[inverse.declaringEntityIndex][inverse.index] ?? ""
            return .inverseForeignKey(
                column: column, orderColumn: relationship.isOrdered ? "Z_FOK_" + column.dropFirst() : nil)
        }
        let mine = JoinSide(relationship, inverse: inverse, model: model, numbers: numbers)
        let theirs = JoinSide(inverse, inverse: relationship, model: model, numbers: numbers)
        let owner = joinTableOwner(mine, theirs) ?? mine
        let other = owner == mine ? theirs : mine
        if joinTables[owner.tableName] == nil {
            let orders = [owner, other].compactMap { side in
                side.orderColumn.map { JoinTableLayout.Order(column: $0, ownerColumn: side.ownerColumn) }
            }
            joinTables[owner.tableName] = JoinTableLayout(
                name: owner.tableName, firstColumn: owner.ownerColumn, secondColumn: owner.memberColumn,
                firstRootIndex: owner.ownerRootIndex, secondRootIndex: other.ownerRootIndex,
                orders: orders.sorted { $0.column < $1.column })
        }
        return .joinTable(
            table: owner.tableName, sourceColumn: mine.ownerColumn, destinationColumn: mine.memberColumn,
            orderColumn: mine.orderColumn)
    }

    /// The side of a many-to-many whose name the join table takes: the one on the entity whose
    /// name sorts first; with both on one entity, the one whose table the file has (nil when
    /// that cannot be known).
    func joinTableOwner(_ mine: JoinSide, _ theirs: JoinSide) -> JoinSide? {
        let (left, right) = (mine.entityName.lowercased(), theirs.entityName.lowercased())
        if left != right { return left < right ? mine : theirs }
        guard let file else { return nil }
        switch (file.has(table: mine.tableName), file.has(table: theirs.tableName)) {
        case (true, false): return mine
        case (false, true): return theirs
        default: return nil
        }
    }

    /// One side of a many-to-many: relationship X on entity E, its inverse X′ on entity D.
    struct JoinSide: Equatable {
        /// E's name.
        let entityName: String
        /// The index of E's root entity (whose keys the owner column holds).
        let ownerRootIndex: Int
        /// `Z_<number of E><X NAME>`: the join table's name when this side names it.
        let tableName: String
        /// `Z_<number of E><X′ NAME>`: X's owners (E's keys).
        let ownerColumn: String
        /// `Z_<number of D><X NAME>`: X's members (D's keys).
        let memberColumn: String
        /// `Z_FOK_<number of D><X NAME>` when X is ordered: its members' positions.
        let orderColumn: String?

        init(_ relationship: ModelRelationship, inverse: ModelRelationship, model: ObjectModel, numbers: [Int64]) {
            let entity = model.entities[relationship.declaringEntityIndex]
            let destination = numbers[inverse.declaringEntityIndex]
            let number = numbers[entity.index]
            entityName = entity.name
            ownerRootIndex = entity.rootIndex
            tableName = "Z_\(number)" + relationship.name.uppercased()
            ownerColumn = "Z_\(number)" + inverse.name.uppercased()
            memberColumn = "Z_\(destination)" + relationship.name.uppercased()
            orderColumn = relationship.isOrdered ? "Z_FOK_\(destination)" + relationship.name.uppercased() : nil
        }
    }
}
