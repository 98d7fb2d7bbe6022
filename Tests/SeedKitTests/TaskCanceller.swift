// Cancels a task from code that runs inside it (a progress callback), at an exact point of the
// work: the callback asks for the cancellation, which reaches the task at once if the test has
// handed over the task's handle, or as soon as it does.
import Synchronization

/// Cancels one task on request, whichever comes first: the request or the task's handle.
final class TaskCanceller: Sendable {
    private let state = Mutex<(cancel: (@Sendable () -> Void)?, requested: Bool)>((nil, false))

    /// Hands over the task to cancel (cancelled at once if a cancellation was already asked for).
    func watch<T: Sendable>(_ task: Task<T, any Error>) {
        let requested = state.withLock { state in
            state.cancel = { task.cancel() }
            return state.requested
        }
        if requested { task.cancel() }
    }

    /// Cancels the task (when handed over; else as soon as it is).
    func cancel() {
        let cancel = state.withLock { state in
            state.requested = true
            return state.cancel
        }
        cancel?()
    }

    /// Whether a cancellation was asked for.
    var requested: Bool { state.withLock { $0.requested } }
}
