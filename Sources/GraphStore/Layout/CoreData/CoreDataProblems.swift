// What keeps a model from a Core Data–layout store, said before anything is read or written:
// relationships whose layout Core Data's facts do not establish (a to-many without an inverse, a
// many-to-many that is its own inverse), a many-to-many between two relationships of one entity
// without a file to say which side names its table, and — for rules read from a file — a file
// that does not fit the model (a table or column missing, entities numbered otherwise).

extension CoreDataLayout {
    package func problems(storing model: ObjectModel) -> [String] {
        var problems: [String] = []
        let numbers = Self.entityNumbers(of: model)
        for entity in model.entities {
            for relationship in entity.relationships
            where relationship.declaringEntity == entity.name && relationship.isToMany && !relationship.isTransient {
                let name = "\(entity.name).\(relationship.name)"
                guard let inverse = model.inverse(of: relationship) else {
                    problems.append(
                        "\(name) is a to-many without an inverse, which Core Data's layout does not say how to store")
                    continue
                }
                guard inverse.isToMany else { continue }
                if inverse === relationship
                    || (inverse.name == relationship.name && inverse.declaringEntity == entity.name)
                {
                    problems.append(
                        "\(name) is a many-to-many that is its own inverse, which Core Data's layout does not say how to store"
                    )
                    continue
                }
                let mine = JoinSide(relationship, inverse: inverse, model: model, numbers: numbers)
                let theirs = JoinSide(inverse, inverse: relationship, model: model, numbers: numbers)
                if joinTableOwner(mine, theirs) == nil, relationship.name < inverse.name {
                    problems.append(
                        "\(name) and \(inverse.declaringEntity).\(inverse.name) are both sides of a many-to-many on one entity, "
                            + "and which of them names the join table (\(mine.tableName) or \(theirs.tableName)) cannot be predicted: "
                            + "start from an empty store the app made for this model (--template EMPTY.sqlite)")
                }
            }
        }
        guard problems.isEmpty, let file else { return problems }
        return problems + fileProblems(file, model: model, numbers: numbers)
    }

    /// What `file` lacks for `model`: tables, columns, or the entity numbering.
    private func fileProblems(_ file: CoreDataFile, model: ObjectModel, numbers: [Int64]) -> [String] {
        var problems: [String] = []
        let layout = StoreLayout(model: model, rules: self)
        for root in layout.roots {
            let table = layout.table(of: root)
            guard let columns = file.columns[table.uppercased()] else {
                problems.append("the store has no table \(table) for \(root.name)")
                continue
            }
            let missing = layout.dataColumns(ofRoot: root).map(\.name).filter { !columns.contains($0.uppercased()) }
            if !missing.isEmpty {
                problems.append("the store's table \(table) has no column " + missing.joined(separator: ", "))
            }
        }
        for table in layout.joinTables {
            guard let columns = file.columns[table.name.uppercased()] else {
                problems.append("the store has no join table \(table.name)")
                continue
            }
            let wanted = [table.firstColumn, table.secondColumn] + table.orders.map(\.column)
            let missing = wanted.filter { !columns.contains($0.uppercased()) }
            if !missing.isEmpty {
                problems.append("the store's join table \(table.name) has no column " + missing.joined(separator: ", "))
            }
        }
        for entity in model.entities {
            let number = numbers[entity.index]
            let parent = entity.parentIndex.map { numbers[$0] } ?? 0
            if let stored = file.parents[number], stored != parent {
                problems.append(
                    "Z_PRIMARYKEY numbers the entities otherwise than the model (entity \(number), \(entity.name) in the model, "
                        + "has parent \(stored) in the store, \(parent) in the model)")
                break
            }
        }
        return problems
    }
}
