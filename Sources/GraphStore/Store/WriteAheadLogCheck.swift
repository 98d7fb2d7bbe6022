// The check a store's write-ahead log passes when the store is opened: SQLite applies any -wal
// whose own header and frame checksums are valid to whatever database lies beside it, even one
// of another database (with other pages, even of another page size), and reads the result as
// the store. A -wal that does not belong to the store is refused instead (docs/Security.md):
// - its page size differs from the database's (a database in WAL mode cannot change its page
//   size, so its own log always has the database's);
// - the database alone (read immutable, without the log) names another store than the database
//   with the log: the store's UUID, which no write changes, differs.
// A database whose file alone holds no metadata yet (a new store whose tables are all still in
// the log) or cannot be read alone (a checkpoint was interrupted) is not compared.
// Invariant: nothing is written; the database alone is read through an immutable URI, which
// neither opens nor creates a side file.
import Foundation

/// Refuses a -wal that does not belong to the database beside which it lies.
///
/// ```swift
/// try WriteAheadLogCheck.checkPageSize(path: "Upload.sqlite")
/// // … the store's metadata read with its log …
/// try WriteAheadLogCheck.checkOwner(path: "Upload.sqlite", metadata: metadata, layouts: StoreLayout.knownRules)
/// ```
enum WriteAheadLogCheck {
    /// The magic numbers of a write-ahead log's header (big-endian), with either checksum order.
    private static let magics: Set<UInt32> = [0x377F_0682, 0x377F_0683]

    /// Throws ``StoreError/Kind/damaged(_:)`` when a -wal of another page size than the store's
    /// lies beside the store at `path`; before SQLite reads either.
    static func checkPageSize(path: String) throws {
        guard let logPageSize = logPageSize(of: path), let pageSize = StoreFileHeader(path: path)?.pageSize,
            logPageSize != pageSize
        else { return }
        throw StoreError(
            .damaged("the -wal beside it is not its own (its pages are \(logPageSize) bytes, the store's \(pageSize))"),
            path: path)
    }

    /// Throws ``StoreError/Kind/damaged(_:)`` when a -wal lies beside the store at `path` that
    /// makes it another store; `metadata` is the store's as read with the log.
    static func checkOwner(path: String, metadata: StoreMetadata, layouts: [any StoreLayoutRules]) throws {
        guard logPageSize(of: path) != nil, let withLog = metadata.storeUUID,
            let alone = try? fileAloneMetadata(of: path, layouts: layouts)?.storeUUID, alone != withLog
        else { return }
        throw StoreError(
            .damaged("the -wal beside it is not its own (it turns store \(alone) into store \(withLog))"), path: path)
    }

    /// The page size in the header of the -wal beside `path`, when there is one with a valid magic.
    private static func logPageSize(of path: String) -> Int? {
        guard let file = FileHandle(forReadingAtPath: path + "-wal") else { return nil }
        defer { try? file.close() }
        guard let data = try? file.read(upToCount: 12), data.count == 12 else { return nil }
        let bytes = Array(data)
        func word(_ offset: Int) -> UInt32 { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        guard magics.contains(word(0)) else { return nil }
        return Int(word(8))
    }

    /// The metadata of the database at `path` without its log, after the same schema check as
    /// any store; nil when no layout recognises it.
    private static func fileAloneMetadata(of path: String, layouts: [any StoreLayoutRules]) throws -> StoreMetadata? {
        let connection = try SQLiteConnection(path: StoreReadAccess.uri(forFileAlone: path), mode: .readOnly)
        defer { connection.close() }
        try StoreSchemaCheck.check(connection, layouts: layouts, path: path)
        guard let rules = try layouts.first(where: { try $0.recognizes(connection) }) else { return nil }
        return try rules.readMetadata(on: connection, path: path)
    }
}
