// Holds a plan import at a batch: the importer commits its batches on a thread of its own and
// reports them through an asynchronous stream, so a progress callback cannot stop it at an exact
// batch. SQLite can: an auto-extension installs update, commit and rollback hooks on every
// connection the probe opens to the user's store (or its temporary copy), and the commit hook of
// the Nth transaction that changes object rows (any table but `seedkit_*` and `sqlite_*`) never
// returns. Batches 1…N-1 are then committed; batch N is written but not committed.
import CSQLite
import Foundation
import Synchronization

/// Counts the store's data commits and stops the one the test names.
enum CommitGate {
    struct State {
        /// The file name of the store; connections to files whose names start with it are watched.
        var storeName = ""
        /// The data commit to hold (nil: count only).
        var stopAt: Int?
        /// Data commits so far.
        var commits = 0
        /// Watched connections whose open transaction changed object rows.
        var dirty: Set<Int> = []
    }

    static let state = Mutex(State())

    /// The number of data commits so far.
    static var commits: Int { state.withLock { $0.commits } }

    /// Watches every connection opened from now on to `store` or a file beside it whose name
    /// starts with the store's; holds the `stopAt`th data commit (when given) for ever.
    static func install(store: String, stopAt: Int?) {
        state.withLock {
            $0.storeName = (store as NSString).lastPathComponent
            $0.stopAt = stopAt
        }
        let entry: @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Int32 = { db, _, _ in
            CommitGate.watch(db)
            return SQLITE_OK
        }
        sqlite3_auto_extension(unsafeBitCast(entry, to: (@convention(c) () -> Void).self))
    }

    private static func key(_ pointer: UnsafeMutableRawPointer?) -> Int { Int(bitPattern: pointer) }

    private static func watch(_ db: OpaquePointer?) {
        guard let db, let cPath = sqlite3_db_filename(db, "main") else { return }
        let name = (String(cString: cPath) as NSString).lastPathComponent
        let wanted = state.withLock { !$0.storeName.isEmpty && name.hasPrefix($0.storeName) }
        guard wanted else { return }
        let context = UnsafeMutableRawPointer(db)
        sqlite3_update_hook(
            db,
            { context, _, _, table, _ in
                guard let table else { return }
                let name = String(cString: table)
                guard !name.hasPrefix("seedkit_"), !name.hasPrefix("sqlite_") else { return }
                CommitGate.state.withLock { _ = $0.dirty.insert(CommitGate.key(context)) }
            }, context)
        sqlite3_rollback_hook(
            db, { context in CommitGate.state.withLock { _ = $0.dirty.remove(CommitGate.key(context)) } }, context)
        sqlite3_commit_hook(
            db,
            { context in
                let hold = CommitGate.state.withLock { state -> Int? in
                    guard state.dirty.remove(CommitGate.key(context)) != nil else { return nil }
                    state.commits += 1
                    return state.commits == state.stopAt ? state.commits : nil
                }
                if let hold {
                    FileHandle.standardOutput.write(Data("paused commit \(hold)\n".utf8))
                    while true { sleep(60) }
                }
                return 0
            }, context)
    }
}
