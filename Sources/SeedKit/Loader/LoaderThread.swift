// Runs a first launch's blocking work (file copies, deep copies, SQLite) on a thread of its own,
// so neither the caller's actor nor Swift's small cooperative pool waits on disk.
import Foundation

/// The loader's worker threads.
enum LoaderThread {
    /// Runs `body` on a new thread and returns (or throws) its result.
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try body() })
            }
            thread.name = "seedkit.loader"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }
}
