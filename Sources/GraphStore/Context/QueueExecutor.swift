// A serial executor backed by a dispatch queue, so a `BackgroundContext` actor can also be
// entered synchronously (`performAndWait`) from code that is not async.
// Invariants: every job and every synchronous entry runs on `queue`, one at a time; `owner` is
// the thread running the queue's work while it runs (a job or a synchronous entry), so a thread
// that holds the queue further up its stack — a parent context whose work waits on its child,
// which needs the parent — enters again directly instead of waiting on itself.
import Dispatch
import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Runs an actor's jobs on one serial dispatch queue.
final class QueueExecutor: SerialExecutor {
    let queue: DispatchQueue
    private let owner = Mutex<UInt?>(nil)

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { self.owning { job.runSynchronously(on: executor) } }
    }

    func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }

    /// Whether the calling thread is running the queue's work (directly, or further up its stack).
    var isCurrent: Bool { owner.withLock { $0 } == Self.currentThread }

    /// Runs `body` on the queue and waits for it.
    func sync<T>(_ body: () throws -> T) rethrows -> T {
        try queue.sync { try owning(body) }
    }

    /// Runs `body` as the queue's owner (the queue is held by the calling thread meanwhile).
    private func owning<T>(_ body: () throws -> T) rethrows -> T {
        let thread = Self.currentThread
        let previous = owner.withLock { owner in
            defer { owner = thread }
            return owner
        }
        defer { owner.withLock { $0 = previous } }
        return try body()
    }

    /// An identity of the calling thread, stable while it runs.
    private static var currentThread: UInt {
        #if canImport(Darwin)
            UInt(bitPattern: pthread_self())
        #else
            UInt(pthread_self())
        #endif
    }
}
