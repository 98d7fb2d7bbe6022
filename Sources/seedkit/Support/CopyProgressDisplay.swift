// Progress of `seedkit copy`: the entity or relationship being written, rows and rate of each
// committed batch, drawn by ProgressLine like the progress of imports.
import DeepCopy

/// Draws copy progress.
final class CopyProgressDisplay: Sendable {
    private let line: ProgressLine

    init(enabled: Bool) {
        line = ProgressLine(enabled: enabled)
    }

    func show(_ step: CopyProgress) {
        let subject = step.phase == .done ? "done" : "copying \(Self.name(of: step))"
        let rate = Int(step.rowsPerSecond)
        line.show(
            fraction: step.fraction, status: "\(subject) \(step.rows)/\(step.totalRows) rows, \(rate)/s",
            secondsLeft: step.estimatedSecondsLeft, seconds: step.seconds, last: step.phase == .done
        ) {
            "\(subject): \(step.rows) of \(step.totalRows) rows, \(rate)/s, \(Int(step.fraction * 100))%"
        }
    }

    func finish() {
        line.finish()
    }

    /// `Item`, or `Item.tags` for a relationship's links.
    private static func name(of step: CopyProgress) -> String {
        step.relationship.map { "\(step.entity).\($0)" } ?? step.entity
    }
}
