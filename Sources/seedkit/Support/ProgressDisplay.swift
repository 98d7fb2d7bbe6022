// Progress of imports and builds: the phase, source, records and rate of each step, drawn by
// ProgressLine.
import SeedImport

/// Draws import progress.
final class ProgressDisplay: Sendable {
    private let line: ProgressLine

    init(enabled: Bool) {
        line = ProgressLine(enabled: enabled)
    }

    func show(_ step: ImportProgress) {
        let rate = Int(step.recordsPerSecond)
        let records = counted(step.records, "record")
        // Phases after reading (references, indexing, done) have no bytes: the bar stays full.
        let fraction = step.bytesTotal > 0 ? Double(step.bytesRead) / Double(step.bytesTotal) : 1
        // Phases after reading have no source and no percentage.
        let subject = step.source.isEmpty ? step.phase : "\(step.phase) \(step.source)"
        line.show(
            fraction: fraction, status: "\(subject): \(records), \(rate)/s",
            secondsLeft: step.estimatedSecondsLeft, seconds: step.seconds, last: step.phase == "done"
        ) {
            let percent = step.bytesTotal > 0 ? ", \(Int(fraction * 100))%" : ""
            return "\(subject): \(records), \(rate)/s\(percent)"
        }
    }

    func finish() {
        line.finish()
    }
}
