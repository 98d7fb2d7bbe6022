// Blocking work (SQLite, file copies) run from async code on a thread of its own, so that neither
// the caller's actor nor Swift's small cooperative pool waits on the disk; and cancellation as
// such work sees it: cancelling the awaiting task sets a flag the thread checks between batches.
// Invariants: the body runs exactly once and its result (or error) is delivered exactly once; the
// flag of a thread is visible only on that thread, and only while its body runs.
import Foundation
import Synchronization

/// A flag set once when the task a piece of work belongs to is cancelled.
package final class CancellationFlag: Sendable {
    private let cancelled = Mutex(false)

    /// A flag that is not set.
    package init() {}

    /// Marks the work as cancelled.
    package func cancel() {
        cancelled.withLock { $0 = true }
    }

    /// Whether the work was cancelled.
    package var isCancelled: Bool {
        cancelled.withLock { $0 }
    }

    /// Throws `CancellationError` when the work was cancelled.
    package func check() throws {
        if isCancelled { throw CancellationError() }
    }
}

/// Runs blocking work on threads of its own and tells it when its task was cancelled.
///
/// ```swift
/// let report = try await BlockingWork.run(name: "seedkit.copy") { _ in
///     try DeepCopier(from: seed, to: store).run()   // stops between batches when the task is cancelled
/// }
/// ```
package enum BlockingWork {
    /// The key of the running body's flag in its thread's dictionary.
    private static let flagKey = "seedkit.cancellation"

    /// Runs `body` on a new thread (named `name`, with an 8 MiB stack) and returns or throws its
    /// result. Cancelling the awaiting task sets the flag `body` gets, which ``isCancelled``
    /// also reports on that thread while `body` runs.
    package static func run<T: Sendable>(
        name: String, _ body: @escaping @Sendable (CancellationFlag) throws -> T
    ) async throws -> T {
        let flag = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let thread = Thread {
                    Thread.current.threadDictionary[flagKey] = flag
                    defer { Thread.current.threadDictionary[flagKey] = nil }
                    continuation.resume(with: Result { try body(flag) })
                }
                thread.name = name
                thread.stackSize = 8 << 20
                thread.start()
            }
        } onCancel: {
            flag.cancel()
        }
    }

    /// Whether the work running here should stop: the current task was cancelled, or — on a
    /// thread started by ``run(name:_:)`` — the task awaiting it was.
    package static var isCancelled: Bool {
        if Task.isCancelled { return true }
        return (Thread.current.threadDictionary[flagKey] as? CancellationFlag)?.isCancelled ?? false
    }

    /// Throws `CancellationError` when ``isCancelled``.
    package static func checkCancellation() throws {
        if isCancelled { throw CancellationError() }
    }
}
