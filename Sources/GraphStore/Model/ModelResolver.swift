// Turns validated declarations into resolved entities: inheritance folded in, slots numbered,
// destinations and inverses found, hashes computed.
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

    /// All relationships of the entity at `index`, inherited first, with their declaring entity's index.
    private func allRelationships(of index: Int) -> [(entity: Int, relationship: RelationshipDescription)] {
        lineage(of: index).flatMap { ancestor in
            declarations[ancestor].relationships.map { (ancestor, $0) }
        }
    }

    private func resolveEntity(at index: Int) -> ModelEntity {
        let declaration = declarations[index]
        let chain = lineage(of: index)
        let rootIndex = chain[0]
        let attributes = chain.flatMap { ancestor in
            declarations[ancestor].attributes.map { ($0, ancestor) }
        }.enumerated().map { slot, pair in
            ModelAttribute(
                declaration: pair.0, index: slot, declaringEntity: declarations[pair.1].name,
                declaringEntityIndex: pair.1)
        }
        let relationships = allRelationships(of: index).enumerated().map { slot, pair in
            resolveRelationship(pair.relationship, declaringEntity: pair.entity, slot: slot)
        }
        let uniqueConstraints = chain.flatMap { declarations[$0].uniqueConstraints }
        let indexes = chain.flatMap { declarations[$0].indexes }
        let subentities = declarations.indices.filter { declarations[$0].parent == declaration.name }
        let kindIndices = descendants(of: index)
        return ModelEntity(
            declaration: declaration, index: index, parentIndex: chain.count > 1 ? chain[chain.count - 2] : nil,
            rootIndex: rootIndex, subentityIndices: subentities, kindIndices: kindIndices,
            attributes: attributes, relationships: relationships, uniqueConstraints: uniqueConstraints,
            indexes: indexes, versionHash: ModelHasher.entityHash(declaration))
    }

    private func resolveRelationship(
        _ relationship: RelationshipDescription, declaringEntity: Int, slot: Int
    ) -> ModelRelationship {
        let destinationIndex = indexByName[relationship.destination] ?? 0
        let inverseSlot = relationship.inverse.flatMap { inverse in
            allRelationships(of: destinationIndex).firstIndex { $0.relationship.name == inverse }
        }
        return ModelRelationship(
            declaration: relationship, index: slot, declaringEntity: declarations[declaringEntity].name,
            declaringEntityIndex: declaringEntity, destinationIndex: destinationIndex, inverseIndex: inverseSlot)
    }
}
