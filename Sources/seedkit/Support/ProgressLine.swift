// How the tool shows progress on standard error, whatever is in progress: a bar redrawn in place
// on a TTY, a plain line at most every two seconds (and at the end) otherwise, nothing when
// progress is off. ProgressDisplay (imports, builds) and CopyProgressDisplay (copies) say what
// to show; this draws it.
// Invariant: a bar left open (drawn without a newline) is ended before anything else is written
// to standard error (an error line, a log line: `endOpenLine()`), so every such line starts at
// the beginning of a line of its own; no blank line is written when no bar is open.
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Draws one progress line on standard error.
final class ProgressLine: Sendable {
    private let enabled: Bool
    private let isTerminal: Bool
    private let lastLine = Mutex<Double>(-.infinity)
    /// Whether a bar is drawn on standard error without its newline yet (one per process).
    private static let barIsOpen = Atomic<Bool>(false)

    /// A line that draws nothing unless `enabled`.
    init(enabled: Bool) {
        self.enabled = enabled
        self.isTerminal = isatty(STDERR_FILENO) == 1
    }

    /// Shows one step: on a terminal `[####----] status ETA`, redrawn in place; otherwise the
    /// text of `line` on a line of its own when two seconds have passed since the last one
    /// (`seconds` into the job), or at the `last` step.
    func show(
        fraction: Double, status: String, secondsLeft: Double?, seconds: Double, last: Bool,
        line: () -> String
    ) {
        guard enabled else { return }
        if isTerminal {
            let width = 30
            let filled = min(max(Int(fraction * Double(width)), 0), width)
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            let eta = secondsLeft.map { String(format: " ETA %.0fs", $0) } ?? ""
            // `\e[K` clears what a longer earlier line left after this one.
            write("\r[\(bar)] \(status)\(eta)\u{1B}[K")
            Self.barIsOpen.store(true, ordering: .sequentiallyConsistent)
        } else if lastLine.withLock({ previous in
            guard seconds - previous >= 2 || last else { return false }
            previous = seconds
            return true
        }) {
            write(line() + "\n")
        }
    }

    /// Ends the redrawn line on a terminal.
    func finish() {
        Self.endOpenLine()
    }

    /// Ends a bar left open on standard error, if any, so that what is written next starts a
    /// line of its own (the next drawing of the bar starts a new one).
    static func endOpenLine() {
        if barIsOpen.exchange(false, ordering: .sequentiallyConsistent) { write("\n") }
    }

    private func write(_ text: String) {
        Self.write(text)
    }

    private static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
