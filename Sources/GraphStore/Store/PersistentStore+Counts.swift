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
            for root in model.entities where root.isRoot {
                let statement = try connection.prepare(
                    "SELECT ent, count(*) FROM \(SQLiteIdentifier.quote(root.tableName)) GROUP BY ent")
                while try statement.step() {
                    let index = Int(statement.int64(0)) - 1
                    guard model.entities.indices.contains(index) else { continue }
                    counts[model.entities[index].name] = statement.int(1)
                }
            }
        }
        return counts
    }
}
