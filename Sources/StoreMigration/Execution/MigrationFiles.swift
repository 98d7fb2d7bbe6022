// The files of one migration, all in the store's own directory (so the final rename is atomic
// and never crosses file systems): `STORE.seedkit-migrate` (the last pass's new file),
// `STORE.seedkit-migrate.N` (intermediate passes), and how leftovers of a killed migration are
// found and removed; the store's fingerprint (size, modification time, SQLite's file change
// counter, the write-ahead log's size) to notice a writer outside SeedKit; free space; the
// optional backup (a hard link, or a synced copy across file systems).
// Invariants: only files whose names start with the store's name and `.seedkit-migrate` are
// ever removed; the store itself is only ever replaced by StoreFiles.install.
import Foundation
import GraphStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The paths and file chores of migrating the store at `store`.
struct MigrationFiles {
    /// The store migrated (or, with an output path, the store read).
    let store: String
    /// The file the migration produces: the store itself, or the output path.
    let result: String

    /// The suffix of every file a migration creates beside the result.
    static let suffix = ".seedkit-migrate"

    /// The directory holding the result.
    var directory: String {
        let parent = (result as NSString).deletingLastPathComponent
        return parent.isEmpty ? "." : parent
    }

    /// The new file of pass `pass` (1-based) of `count`: the last one is `RESULT.seedkit-migrate`.
    func passFile(_ pass: Int, of count: Int) -> String {
        pass == count ? result + Self.suffix : result + Self.suffix + ".\(pass)"
    }

    /// Removes what a killed migration left beside the result: every `RESULT.seedkit-migrate*`
    /// file, side files included.
    func removeLeftovers() throws {
        let prefix = (result as NSString).lastPathComponent + Self.suffix
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names.sorted() where name.hasPrefix(prefix) {
            try fileErrors { try StoreFiles.remove((directory as NSString).appendingPathComponent(name)) }
        }
    }

    /// Removes one new file with its side files (a failed or finished pass).
    func remove(_ path: String) throws {
        try fileErrors { try StoreFiles.remove(path) }
    }

    // MARK: - Fingerprint

    /// What changes when anyone writes to a SQLite file.
    struct Fingerprint: Equatable {
        var size: Int64
        var modified: Int64
        var changeCounter: UInt32
        var logSize: Int64
    }

    /// The store's fingerprint now.
    func fingerprint() throws -> Fingerprint {
        var status = stat()
        guard stat(store, &status) == 0 else { throw MigrationFiles.failure("cannot read", store) }
        var log = stat()
        let logSize = stat(store + "-wal", &log) == 0 ? Int64(log.st_size) : -1
        #if canImport(Darwin)
            let modified = Int64(status.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(status.st_mtimespec.tv_nsec)
        #else
            let modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        #endif
        return Fingerprint(
            size: Int64(status.st_size), modified: modified, changeCounter: try changeCounter(), logSize: logSize)
    }

    /// SQLite's file change counter: bytes 24–27 of the database header, big-endian.
    private func changeCounter() throws -> UInt32 {
        guard let handle = FileHandle(forReadingAtPath: store) else {
            throw MigrationFiles.failure("cannot read", store)
        }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 28)) ?? Data()
        guard header.count == 28 else { return 0 }
        return header[24..<28].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    // MARK: - Space and backup

    /// Fails when the directory has less free space than `bytes`.
    func requireSpace(_ bytes: Int64) throws {
        var status = statvfs()
        guard statvfs(directory, &status) == 0 else { return }
        let available = Int64(status.f_bavail) * Int64(status.f_frsize)
        guard available >= bytes else {
            throw MigrationError(.insufficientSpace(needed: bytes, available: available), store: store)
        }
    }

    /// The size of the store file in bytes.
    func storeSize() throws -> Int64 {
        var status = stat()
        guard stat(store, &status) == 0 else { throw MigrationFiles.failure("cannot read", store) }
        return Int64(status.st_size)
    }

    /// Keeps the store's current file at `backup` (which must not exist): a hard link, or a
    /// synced copy when the link cannot be made (another file system); then syncs its directory.
    func backUp(to backup: String) throws {
        guard !FileManager.default.fileExists(atPath: backup) else {
            throw MigrationError(.fileSystem("the backup \(backup) already exists"), store: store)
        }
        if link(store, backup) != 0 {
            do {
                try FileManager.default.copyItem(atPath: store, toPath: backup)
            } catch {
                throw MigrationError(.fileSystem("cannot copy the store to \(backup): \(error)"), store: store)
            }
        }
        try fileErrors {
            try StoreFiles.sync(backup)
            try StoreFiles.syncDirectory(of: backup)
        }
    }

    /// Runs `body`, reporting a store file error as a migration's file-system error.
    func fileErrors(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as StoreError {
            throw MigrationError(.fileSystem(error.description), store: store)
        }
    }

    private static func failure(_ operation: String, _ path: String) -> MigrationError {
        MigrationError(.fileSystem("\(operation) \(path): \(String(cString: strerror(errno)))"), store: path)
    }
}
