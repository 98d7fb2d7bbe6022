// The permanent IDs a root context's saves gave to objects that had temporary IDs, shared by the
// root and every context descending from it, so that children — on any queue — give their own
// objects those IDs too.
// Invariants: a temporary ID is unique in the process, so an entry never changes once written;
// the generation grows with every recorded save, so a context adopts only after something new.
import Synchronization

/// Temporary IDs and the permanent IDs their objects took when the root context saved them.
final class PermanentIDLedger: Sendable {
    private struct Entries {
        var generation = 0
        var permanent: [ObjectID: ObjectID] = [:]
    }

    private let entries = Mutex(Entries())

    /// Records the IDs one save of the root context made permanent (temporary → permanent).
    func record(_ pairs: [ObjectID: ObjectID]) {
        guard !pairs.isEmpty else { return }
        entries.withLock { entries in
            entries.permanent.merge(pairs) { _, new in new }
            entries.generation += 1
        }
    }

    /// Every recorded pair when something was recorded since `generation`, which is moved on to
    /// now; nil when nothing was.
    func pairs(after generation: inout Int) -> [ObjectID: ObjectID]? {
        let (now, pairs) = entries.withLock { ($0.generation, $0.permanent) }
        guard now != generation else { return nil }
        generation = now
        return pairs
    }
}
