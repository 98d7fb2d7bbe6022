// Holding blocking work at an exact point until the task awaiting it is cancelled, so that a
// test's cancellation certainly lands mid-run however late the test's own task is scheduled.
import Foundation
import GraphStore

extension BlockingWork {
    /// Waits, on the thread of a ``BlockingWork/run(name:_:)`` body (from its progress callback),
    /// until the task awaiting it is cancelled, or `seconds` have passed (then the test's
    /// expectations of a cancelled run fail instead of the test hanging).
    package static func waitForCancellation(atMost seconds: TimeInterval) {
        let deadline = Date().addingTimeInterval(seconds)
        while !isCancelled && Date() < deadline { usleep(1000) }
    }
}
