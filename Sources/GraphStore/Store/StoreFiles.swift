// The files a store is made of — the database and SQLite's side files (`-wal`, `-shm`,
// `-journal`) — and removing them together: a store that a failed or cancelled job created, the
// temporary file of a build, or side files left without their database (SQLite would read a
// stale write-ahead log into a new file of the same name). And installing a finished file in a
// store's place so that a crash leaves either the old file or the complete new one: fsync, an
// atomic rename after clearing the old store's side files, fsync of the directory.
// Invariants: only the named store's own files are touched; a file that is not there is fine;
// a store path only ever holds a complete, synced file (the rename is the commit point).
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A store's files on disk.
///
/// ```swift
/// try StoreFiles.remove("Catalog.sqlite.building")     // the database and its side files
/// try StoreFiles.removeSideFiles(of: "Catalog.sqlite") // before a new file takes the name
/// ```
package enum StoreFiles {
    /// The suffixes of SQLite's side files of a database.
    package static let sideFileSuffixes = ["-wal", "-shm", "-journal"]

    /// The paths of the side files of the store at `path`.
    package static func sideFiles(of path: String) -> [String] {
        sideFileSuffixes.map { path + $0 }
    }

    /// Removes the store at `path` and its side files; files that are not there are fine.
    ///
    /// - Throws: ``StoreError`` naming the file that could not be removed (`.sqlite` with the
    ///   system's reason); the files before it are gone.
    package static func remove(_ path: String) throws {
        for file in [path] + sideFiles(of: path) { try removeFile(file) }
    }

    /// Removes the side files of the store at `path`, leaving the database.
    package static func removeSideFiles(of path: String) throws {
        for file in sideFiles(of: path) { try removeFile(file) }
    }

    /// Moves the finished, synced file `temporary` to `destination` atomically, after clearing
    /// the side files of the store at `destination` (a stale write-ahead log must never be
    /// applied to the new file), and syncs the directory so that the rename survives a power loss.
    ///
    /// ```swift
    /// try StoreFiles.sync("App.sqlite.seedkit-migrate")
    /// try StoreFiles.install("App.sqlite.seedkit-migrate", at: "App.sqlite")
    /// ```
    ///
    /// `afterRename` runs between the rename and the directory's sync (kill tests stop there).
    package static func install(_ temporary: String, at destination: String, afterRename: () -> Void = {}) throws {
        try removeSideFiles(of: destination)
        guard rename(temporary, destination) == 0 else {
            throw failure("cannot move \(temporary) here", destination)
        }
        afterRename()
        try syncDirectory(of: destination)
    }

    /// fsyncs the file at `path`.
    package static func sync(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("cannot open", path) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw failure("cannot sync", path) }
    }

    /// fsyncs the directory holding `path` (its entries, such as a rename).
    package static func syncDirectory(of path: String) throws {
        let parent = (path as NSString).deletingLastPathComponent
        let directory = parent.isEmpty ? "." : parent
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("cannot open the directory", directory) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw failure("cannot sync the directory", directory) }
    }

    /// A file-system error about `path`: the operation and the system's reason.
    private static func failure(_ operation: String, _ path: String) -> StoreError {
        StoreError(.fileSystem("\(operation): \(String(cString: strerror(errno)))"), path: path)
    }

    private static func removeFile(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw StoreError(.fileSystem("cannot remove: \(String(cString: strerror(errno)))"), path: path)
        }
    }
}
