// The source rows each step of a copy goes through, counted once the identity maps exist and
// before the first batch (only when someone follows the copy's progress): an entity table's
// copied rows (every source row for a table copied through an offset, else its map's rows) and
// a followed join table's pairs. These are the rows the batches page through.
import GraphStore

/// Source rows per step of a copy.
struct CopyRowTotals {
    /// Rows per table, by its source root entity's index.
    private(set) var tables: [Int: Int] = [:]
    /// Pairs per join table, by its source name.
    private(set) var joinTables: [String: Int] = [:]

    /// Counts the rows of `tables` and of the join tables in `links` whose ends both have a map.
    init(tables rootTables: [RootTable], maps: [Int: IdentityMap], links: CopyLinks, on connection: SQLiteConnection)
        throws
    {
        for table in rootTables {
            switch maps[table.root.index] {
            case .offset:
                tables[table.root.index] = Int(try connection.integer("SELECT count(*) FROM \(table.source)"))
            case .table(let name):
                tables[table.root.index] = Int(
                    try connection.integer("SELECT count(*) FROM temp.\(SQLiteIdentifier.quote(name))"))
            case nil:
                continue
            }
        }
        for link in links.joinTables where maps[link.owners] != nil && maps[link.members] != nil {
            let source = SourceAttachment.schema + "." + SQLiteIdentifier.quote(link.sourceTable)
            joinTables[link.sourceTable] = Int(try connection.integer("SELECT count(*) FROM \(source)"))
        }
    }

    /// Rows of every step together.
    var all: Int { tables.values.reduce(0, +) + joinTables.values.reduce(0, +) }
}
