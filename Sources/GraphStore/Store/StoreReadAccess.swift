// How SeedKit opens a store's file for reading only, so that reading never changes a byte of the
// database, of its write-ahead log or of the folder (docs/Security.md "Reading changes nothing"):
// - always `mode=ro`: nothing is written to the database or its -wal, and closing never
//   checkpoints (the file is open for reading only; connections say no_ckpt_on_close besides);
// - `immutable=1` as well when the database is in WAL mode with neither a -shm nor a -wal (or an
//   empty one) beside it, as a WAL store is left when its last connection closes: SQLite would
//   otherwise create a -wal and a -shm to read it, and leave them. With no log there is nothing
//   but the file to read. The trade-off: SQLite then takes no lock and trusts the file not to
//   change, so a process that starts writing to the store while it is read (its writes go to a
//   new -wal, and its checkpoints into the file) may make the read see a mix of old and new
//   pages: a damaged-store error or an inconsistent read, never a write;
// - otherwise SQLite's locks are taken, as for any reader: a -wal with frames must be read (it
//   may hold committed transactions) and a -shm means a process may have the store open. SQLite
//   keeps its index of the -wal in the -shm: a missing one is created (it holds no data) and
//   left, since another process may have opened the store meanwhile.
// Invariant: the URI is absolute and percent-encoded, so any path (with `?`, `#`, `%`) opens.
import Foundation

/// The `file:` URIs that open a store's file for reading only.
///
/// ```swift
/// let connection = try SQLiteConnection(path: StoreReadAccess.uri(forFile: "Upload.sqlite"), mode: .readOnly)
/// ```
package enum StoreReadAccess {
    /// A `file:` URI that opens the database at `path` read-only, immutable when that is safe
    /// and needed to leave no file behind (see the file's header).
    package static func uri(forFile path: String) -> String {
        let absolute = absolutePath(path)
        let uri = "file:" + SQLiteConnection.percentEncoded(absolute) + "?mode=ro"
        return holdsItsWholeState(absolute) ? uri + "&immutable=1" : uri
    }

    /// A `file:` URI that opens the database file at `path` alone, read-only and immutable:
    /// SQLite reads neither its -wal nor its -shm (WriteAheadLogCheck compares the two readings).
    package static func uri(forFileAlone path: String) -> String {
        "file:" + SQLiteConnection.percentEncoded(absolutePath(path)) + "?mode=ro&immutable=1"
    }

    private static func absolutePath(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// Whether the file at `path` is in write-ahead-log mode with no -shm and no -wal beside it
    /// (or an empty one), so that the file alone is the whole database and no process has it open.
    private static func holdsItsWholeState(_ path: String) -> Bool {
        guard StoreFileHeader(path: path)?.isWriteAheadLog == true,
            !FileManager.default.fileExists(atPath: path + "-shm")
        else { return false }
        let log = try? FileManager.default.attributesOfItem(atPath: path + "-wal")
        return (log?[.size] as? Int ?? 0) == 0
    }
}
