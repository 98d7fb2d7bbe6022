// Task cancellation as the import's own thread sees it: set from the task awaiting the run,
// checked between batches and between the steps after the load, where stopping leaves the
// target to be put back whole (ImportTarget.abandon).
import Synchronization

/// A flag set once when the task running an import is cancelled.
final class RunCancellation: Sendable {
    private let cancelled = Atomic<Bool>(false)

    /// Marks the run as cancelled.
    func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }

    /// Throws `CancellationError` when the run was cancelled.
    func check() throws {
        if cancelled.load(ordering: .relaxed) { throw CancellationError() }
    }
}
