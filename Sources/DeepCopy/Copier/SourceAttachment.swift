// The source store attached read-only to the target context's connection as `source`, so a copy
// is plain SQL between `source` and `main`; and the clean-up afterwards: the copy's TEMP tables
// (named with the target layout's reserved prefix) dropped and the source detached (also after a
// failure).
// Invariant: the source is attached with `mode=ro`: nothing the copy runs can write to it.
import GraphStore

/// Attaches a copy's source to the target's connection, and detaches it.
struct SourceAttachment {
    /// The schema name of the attached source.
    static let schema = "source"

    let source: PersistentStore
    let batches: CopyBatches
    /// The target's layout, whose reserved names the copy's TEMP tables carry.
    let targetLayout: StoreLayout

    /// Attaches the source as `source`.
    func attach() throws {
        try batches.outsideTransactions { connection in
            let attach = try connection.prepare("ATTACH DATABASE ? AS \(Self.schema)")
            attach.bind(text: source.readOnlyURI, at: 1)
            try attach.execute()
        }
    }

    /// Drops the copy's TEMP tables and detaches the source.
    func detach() throws {
        try batches.outsideTransactions { connection in
            let tables = try connection.prepare("SELECT name FROM sqlite_temp_master WHERE type = 'table'")
            var names: [String] = []
            while try tables.step() { names.append(tables.string(0)) }
            tables.reset()
            for name in names where name.hasPrefix(targetLayout.reservedName("")) {
                try connection.execute("DROP TABLE temp.\(SQLiteIdentifier.quote(name))")
            }
            try connection.execute("DETACH DATABASE \(Self.schema)")
        }
    }
}
