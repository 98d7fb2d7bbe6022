// Progress on the terminal: a redrawn bar on a TTY, a plain line every few seconds otherwise.
import Foundation
import SeedImport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Draws import progress.
final class ProgressDisplay: Sendable {
    private let enabled: Bool
    private let isTerminal: Bool
    private let lastLine = Mutex<Double>(-.infinity)

    init(enabled: Bool) {
        self.enabled = enabled
        self.isTerminal = isatty(STDERR_FILENO) == 1
    }

    func show(_ step: ImportProgress) {
        guard enabled else { return }
        let rate = Int(step.recordsPerSecond)
        // Phases after reading (references, indexing, done) have no bytes: the bar stays full.
        let fraction = step.bytesTotal > 0 ? Double(step.bytesRead) / Double(step.bytesTotal) : 1
        if isTerminal {
            let width = 30
            let filled = Int(fraction * Double(width))
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            let eta = step.estimatedSecondsLeft.map { String(format: " ETA %.0fs", $0) } ?? ""
            // `\e[K` clears what a longer earlier line left after this one.
            write("\r[\(bar)] \(step.phase) \(step.source) \(counted(step.records, "record")), \(rate)/s\(eta)\u{1B}[K")
        } else if lastLine.withLock({ last in
            guard step.seconds - last >= 2 || step.phase == "done" else { return false }
            last = step.seconds
            return true
        }) {
            // Phases after reading have no source and no percentage.
            let subject = step.source.isEmpty ? step.phase : "\(step.phase) \(step.source)"
            let percent = step.bytesTotal > 0 ? ", \(Int(fraction * 100))%" : ""
            write("\(subject): \(counted(step.records, "record")), \(rate)/s\(percent)\n")
        }
    }

    func finish() {
        if enabled && isTerminal { write("\n") }
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
