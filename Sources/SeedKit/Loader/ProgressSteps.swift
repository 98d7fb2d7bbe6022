// Numbers the progress updates of one first-launch phase (`SeedLoader.Progress.step`), whichever
// thread reports them.
import Synchronization

/// Hands out 1, 2, 3… to a phase's updates, in the order they are reported.
final class ProgressSteps: Sendable {
    private let count = Mutex(0)

    /// The number of the update being reported.
    func next() -> Int {
        count.withLock { count in
            count += 1
            return count
        }
    }
}
