// One writer of a store's files at a time per directory, across threads and processes: an
// exclusive flock on the store's directory (no lock file is left behind, and the kernel drops
// the lock when a holder dies, so a killed job never blocks the next one). First launches and
// migrations both take it before they touch the files beside a store.
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive advisory lock on a directory.
///
/// ```swift
/// try await DirectoryLock.withLock(on: "/path/to/Stores") { try migrate() }
/// ```
package enum DirectoryLock {
    /// Waits (polling, without blocking a thread) until this caller holds the lock on
    /// `directory`, runs `body`, and releases the lock.
    ///
    /// - Throws: `CancellationError` when the task is cancelled while waiting, ``StoreError``
    ///   (`.fileSystem`, naming the directory) when it cannot be opened or locked, or what `body` throws.
    package static func withLock<T>(on directory: String, _ body: () async throws -> T) async throws -> T {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw StoreError(
                .fileSystem("cannot open the directory: \(String(cString: strerror(errno)))"), path: directory)
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let reason = errno
            guard reason == EWOULDBLOCK || reason == EINTR else {
                throw StoreError(
                    .fileSystem("cannot lock the directory: \(String(cString: strerror(reason)))"), path: directory)
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        return try await body()
    }
}
