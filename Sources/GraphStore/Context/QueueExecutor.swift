// A serial executor backed by a dispatch queue, so a `BackgroundContext` actor can also be
// entered synchronously (`performAndWait`) from code that is not async.
// Invariant: every job and every synchronous entry runs on `queue`, one at a time.
import Dispatch

/// Runs an actor's jobs on one serial dispatch queue.
final class QueueExecutor: SerialExecutor {
    let queue: DispatchQueue
    private let key = DispatchSpecificKey<Bool>()

    init(label: String) {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: key, value: true)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }

    /// Whether the caller is already running on the queue.
    var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
}
