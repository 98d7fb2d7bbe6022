// Where a SELECT's columns land in an object: per attribute slot and per stored to-one slot.
// Invariant: built from the same column lists as the SQL it reads (the layout's EntityRowLayout), so column
// indexes always match the statement.

/// Maps result columns onto one entity's object storage.
struct RowMapping {
    /// Column of the row version.
    let versionColumn: Int32
    /// Column per stored attribute slot (parallel to `EntityRowLayout.storedAttributes`).
    let attributeColumns: [Int32]
    /// Column per stored to-one slot (parallel to `EntityRowLayout.foreignKeys`).
    let foreignKeyColumns: [Int32]
    /// Column holding the destination's entity number per stored to-one slot, when the destination has sub-entities.
    let foreignKeyEntityColumns: [Int32?]

    /// The mapping for `EntityRowLayout.selectSQL` (which starts with the version).
    static func forSingleRow(_ layout: EntityRowLayout) -> RowMapping {
        let dataCount = layout.storedAttributes.count + layout.foreignKeys.count
        var entityColumns: [Int32?] = []
        var next = Int32(1 + dataCount)
        for needsEntity in layout.foreignKeyNeedsEntity {
            entityColumns.append(needsEntity ? next : nil)
            if needsEntity { next += 1 }
        }
        return RowMapping(
            versionColumn: 0,
            attributeColumns: (0..<layout.storedAttributes.count).map { Int32(1 + $0) },
            foreignKeyColumns: (0..<layout.foreignKeys.count).map { Int32(1 + layout.storedAttributes.count + $0) },
            foreignKeyEntityColumns: entityColumns)
    }
}

extension RowMapping {
    /// The same mapping for a SELECT with `count` more columns in front.
    func shifted(by count: Int32) -> RowMapping {
        RowMapping(
            versionColumn: versionColumn + count, attributeColumns: attributeColumns.map { $0 + count },
            foreignKeyColumns: foreignKeyColumns.map { $0 + count },
            foreignKeyEntityColumns: foreignKeyEntityColumns.map { $0.map { $0 + count } })
    }
}

/// The columns a fetch selects for an entity and all its kinds, and each kind's mapping.
struct FetchRowLayout {
    /// SQL column expressions over alias `t0`: its key, entity and version columns, then data columns.
    let columns: [String]
    /// The mapping for each kind, by entity index.
    let mappings: [Int: RowMapping]

    init(entity: ModelEntity, layout: StoreLayout) {
        var columns = ["t0." + layout.keyColumn, "t0." + layout.entityColumn, "t0." + layout.versionColumn]
        var indexOfColumn: [String: Int32] = [:]
        func column(_ expression: String) -> Int32 {
            if let index = indexOfColumn[expression] { return index }
            columns.append(expression)
            let index = Int32(columns.count - 1)
            indexOfColumn[expression] = index
            return index
        }
        var mappings: [Int: RowMapping] = [:]
        for number in layout.kindNumbers(of: entity) {
            guard let kind = layout.entity(number: number) else { continue }
            let rows = layout.rows(of: kind)
            let data = rows.dataColumns.map { column("t0." + $0) }
            let attributeCount = rows.storedAttributes.count
            var entityColumns: [Int32?] = []
            var subqueries = rows.destinationEntityColumns(alias: "t0").makeIterator()
            for needsEntity in rows.foreignKeyNeedsEntity {
                entityColumns.append(needsEntity ? subqueries.next().map(column) : nil)
            }
            mappings[kind.index] = RowMapping(
                versionColumn: 2, attributeColumns: Array(data.prefix(attributeCount)),
                foreignKeyColumns: Array(data.dropFirst(attributeCount)), foreignKeyEntityColumns: entityColumns)
        }
        self.columns = columns
        self.mappings = mappings
    }
}
