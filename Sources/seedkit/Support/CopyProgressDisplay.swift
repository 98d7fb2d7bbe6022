// Progress of `seedkit copy` on standard error, like ProgressDisplay for imports: a redrawn bar on
// a TTY, a plain line every few seconds (and at the end) otherwise, nothing when disabled.
import DeepCopy
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Draws copy progress.
final class CopyProgressDisplay: Sendable {
    private let enabled: Bool
    private let isTerminal: Bool
    private let lastLine = Mutex<Double>(-.infinity)

    init(enabled: Bool) {
        self.enabled = enabled
        self.isTerminal = isatty(STDERR_FILENO) == 1
    }

    func show(_ step: CopyProgress) {
        guard enabled else { return }
        let subject = step.phase == .done ? "done" : "copying \(Self.name(of: step))"
        let rate = Int(step.rowsPerSecond)
        if isTerminal {
            let width = 30
            let filled = Int(step.fraction * Double(width))
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            let eta = step.estimatedSecondsLeft.map { String(format: " ETA %.0fs", $0) } ?? ""
            write("\r\u{1B}[K[\(bar)] \(subject) \(step.rows)/\(step.totalRows) rows, \(rate)/s\(eta)")
        } else if lastLine.withLock({ last in
            guard step.seconds - last >= 2 || step.phase == .done else { return false }
            last = step.seconds
            return true
        }) {
            write("\(subject): \(step.rows) of \(step.totalRows) rows, \(rate)/s, \(Int(step.fraction * 100))%\n")
        }
    }

    func finish() {
        if enabled && isTerminal { write("\n") }
    }

    /// `Item`, or `Item.tags` for a relationship's links.
    private static func name(of step: CopyProgress) -> String {
        step.relationship.map { "\(step.entity).\($0)" } ?? step.entity
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
