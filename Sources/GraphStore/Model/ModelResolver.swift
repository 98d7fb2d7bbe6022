// Turns validated declarations into resolved entities: inheritance folded in, slots numbered,
// relationship storage decided, hashes computed.
// Precondition: the declarations passed `ModelValidator` (every name it looks up exists).

/// Resolves validated entity declarations into ``ModelEntity`` values.
struct ModelResolver {
    private let declarations: [EntityDescription]
    private let indexByName: [String: Int]

    init(declarations: [EntityDescription]) {
        self.declarations = declarations.sorted { $0.name < $1.name }
        self.indexByName = Dictionary(
            uniqueKeysWithValues: self.declarations.enumerated().map { ($1.name, $0) })
    }

    /// The resolved entities, in name order.
    func resolve() -> [ModelEntity] {
        declarations.indices.map(resolveEntity(at:))
    }

    private func lineage(of index: Int) -> [Int] {
        var chain = [index]
        while let parent = declarations[chain[0]].parent, let parentIndex = indexByName[parent] {
            chain.insert(parentIndex, at: 0)
        }
        return chain
    }

    private func descendants(of index: Int) -> [Int] {
        declarations.indices.filter { lineage(of: $0).contains(index) }
    }

    /// All relationships of the entity at `index`, inherited first, with their declaring entity.
    private func allRelationships(of index: Int) -> [(entity: String, relationship: RelationshipDescription)] {
        lineage(of: index).flatMap { ancestor in
            declarations[ancestor].relationships.map { (declarations[ancestor].name, $0) }
        }
    }

    private func resolveEntity(at index: Int) -> ModelEntity {
        let declaration = declarations[index]
        let chain = lineage(of: index)
        let rootIndex = chain[0]
        let attributes = chain.flatMap { ancestor in
            declarations[ancestor].attributes.map { ($0, declarations[ancestor].name) }
        }.enumerated().map { slot, pair in
            ModelAttribute(declaration: pair.0, index: slot, declaringEntity: pair.1)
        }
        let relationships = allRelationships(of: index).enumerated().map { slot, pair in
            resolveRelationship(pair.relationship, declaringEntity: pair.entity, slot: slot)
        }
        let uniqueConstraints = chain.flatMap { declarations[$0].uniqueConstraints }
        let indexes = chain.flatMap { declarations[$0].indexes }
        let subentities = declarations.indices.filter { declarations[$0].parent == declaration.name }
        let kindStoreIDs = descendants(of: index).map { Int64($0 + 1) }
        return ModelEntity(
            declaration: declaration, index: index, parentIndex: chain.count > 1 ? chain[chain.count - 2] : nil,
            rootIndex: rootIndex, subentityIndices: subentities, kindStoreIDs: kindStoreIDs,
            attributes: attributes, relationships: relationships, uniqueConstraints: uniqueConstraints,
            indexes: indexes, tableName: declarations[rootIndex].name,
            versionHash: ModelHasher.entityHash(declaration))
    }

    private func resolveRelationship(
        _ relationship: RelationshipDescription, declaringEntity: String, slot: Int
    ) -> ModelRelationship {
        let destinationIndex = indexByName[relationship.destination] ?? 0
        let destinationRelationships = allRelationships(of: destinationIndex)
        let inverseSlot = relationship.inverse.flatMap { inverse in
            destinationRelationships.firstIndex { $0.relationship.name == inverse }
        }
        let inverse = inverseSlot.map { destinationRelationships[$0] }
        return ModelRelationship(
            declaration: relationship, index: slot, declaringEntity: declaringEntity,
            destinationIndex: destinationIndex, inverseIndex: inverseSlot,
            storage: storage(of: relationship, declaringEntity: declaringEntity, inverse: inverse))
    }

    private func storage(
        of relationship: RelationshipDescription, declaringEntity: String,
        inverse: (entity: String, relationship: RelationshipDescription)?
    ) -> RelationshipStorage {
        if relationship.isTransient { return .transient }
        if !relationship.isToMany { return .foreignKey(column: relationship.name) }
        if let inverse, !inverse.relationship.isToMany {
            let order =
                relationship.isOrdered
                ? RelationshipStorageRules.orderColumn(forInverse: inverse.relationship.name) : nil
            return .inverseForeignKey(column: inverse.relationship.name, orderColumn: order)
        }
        if RelationshipStorageRules.ownsJoinTable(relationship, entity: declaringEntity, inverse: inverse) {
            let table = RelationshipStorageRules.joinTableName(entity: declaringEntity, relationship: relationship.name)
            let order: String? = relationship.isOrdered ? "position" : nil
            return .joinTable(table: table, sourceColumn: "src", destinationColumn: "dst", orderColumn: order)
        }
        // The inverse owns the join table: read it from the other end.
        let owner = inverse?.relationship
        let table = RelationshipStorageRules.joinTableName(
            entity: inverse?.entity ?? "", relationship: owner?.name ?? "")
        let order: String? = relationship.isOrdered ? "inverse_position" : nil
        return .joinTable(table: table, sourceColumn: "dst", destinationColumn: "src", orderColumn: order)
    }
}
