// Task cancellation, as the loader's worker thread sees it: set from the cancelling task,
// checked between chunks and batches.
import Synchronization

/// A flag set once when the task running a first launch is cancelled.
final class CancellationFlag: Sendable {
    private let cancelled = Mutex(false)

    /// Marks the work as cancelled.
    func cancel() {
        cancelled.withLock { $0 = true }
    }

    /// Whether the work was cancelled.
    var isCancelled: Bool {
        cancelled.withLock { $0 }
    }

    /// Throws `CancellationError` when the work was cancelled.
    func check() throws {
        if isCancelled { throw CancellationError() }
    }
}
