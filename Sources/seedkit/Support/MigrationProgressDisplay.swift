// Progress of `seedkit migrate`: the pass's versions, rows read of the total and the share,
// drawn by ProgressLine like the progress of imports and copies.
import StoreMigration
import Synchronization

/// Draws migration progress.
final class MigrationProgressDisplay: Sendable {
    private let line: ProgressLine
    /// Whether a line was drawn (only then does `finish` end it).
    private let drawn = Mutex(false)

    init(enabled: Bool) {
        line = ProgressLine(enabled: enabled)
    }

    /// Draws `progress`; nothing when the store needs no pass (nothing to do).
    func show(_ progress: MigrationProgress) {
        guard progress.stepCount > 0 else { return }
        drawn.withLock { $0 = true }
        let last = progress.phase == .finished
        let subject: String
        switch progress.phase {
        case .migrating: subject = "migrating \(progress.from) → \(progress.to)"
        case .indexing: subject = "indexing \(progress.to) (\(progress.indexesBuilt) of \(progress.indexCount))"
        case .finished: subject = "done"
        default: subject = "\(progress.phase.rawValue) \(progress.to)"
        }
        line.show(
            fraction: progress.fraction, status: "\(subject) \(progress.completed)/\(progress.total) rows",
            secondsLeft: nil, seconds: progress.seconds, last: last
        ) {
            "\(subject): \(progress.completed) of \(progress.total) rows, \(Int(progress.fraction * 100))%"
        }
    }

    func finish() {
        if drawn.withLock({ $0 }) { line.finish() }
    }
}
