// The files a store is made of — the database and SQLite's side files (`-wal`, `-shm`,
// `-journal`) — and removing them together: a store that a failed or cancelled job created, the
// temporary file of a build, or side files left without their database (SQLite would read a
// stale write-ahead log into a new file of the same name).
// Invariant: only the named store's own files are touched; a file that is not there is fine.
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

    private static func removeFile(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw StoreError(.fileSystem("cannot remove: \(String(cString: strerror(errno)))"), path: path)
        }
    }
}
