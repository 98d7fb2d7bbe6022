// Object counts per entity, read straight from the tables (for `seedkit inspect`).

extension PersistentStore {
    /// The number of objects of each concrete entity (entities with none are listed with 0).
    ///
    /// ```swift
    /// try store.objectCounts()["Item"]   // 1000000
    /// ```
    public func objectCounts() throws -> [String: Int] {
        let connection = try makeConnection()
        var counts = Dictionary(uniqueKeysWithValues: model.entities.filter { !$0.isAbstract }.map { ($0.name, 0) })
        try Self.sqlite(location.description) {
            for root in layout.roots {
                let entity = layout.entityColumn
                let statement = try connection.prepare(
                    "SELECT \(entity), count(*) FROM \(SQLiteIdentifier.quote(layout.table(of: root))) GROUP BY \(entity)"
                )
                while try statement.step() {
                    guard let counted = layout.entity(number: statement.int64(0)) else { continue }
                    counts[counted.name] = statement.int(1)
                }
            }
        }
        return counts
    }
}
