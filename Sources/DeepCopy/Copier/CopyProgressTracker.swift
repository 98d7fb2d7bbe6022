// The copy's progress for DeepCopyOptions.batchProgress: the copy is a sequence of steps (an
// entity's table, a relationship's join table or positions), each with the number of source rows
// it goes through, counted before the first batch; a paged batch advances by its page's rows, any
// other batch completes its step. A report is handed over only after its batch committed.
// Invariant: `rows` never passes the end of the current step, and a step's start is the end of
// every step before it, so estimates from paging cannot drift across steps.
import Foundation

/// Counts the rows a copy has gone through and reports ``CopyProgress``.
final class CopyProgressTracker {
    private let callback: (@Sendable (CopyProgress) -> Void)?
    private let started = Date()
    private var totalRows = 0
    private var rows = 0
    private var stepEnd = 0
    /// The rows done once the batch being written commits.
    private var pending: Int?
    private var phase = CopyProgress.Phase.objects
    private var entity = ""
    private var relationship: String?

    init(callback: (@Sendable (CopyProgress) -> Void)?) {
        self.callback = callback
    }

    /// Whether anyone listens (else the copy counts nothing).
    var isListening: Bool { callback != nil }

    /// Sets the rows the whole copy goes through.
    func expect(totalRows: Int) {
        self.totalRows = totalRows
    }

    /// Starts a step going through `stepRows` source rows; the steps before it are complete.
    func begin(_ phase: CopyProgress.Phase, entity: String, relationship: String? = nil, rows stepRows: Int) {
        rows = stepEnd
        stepEnd += stepRows
        pending = nil
        self.phase = phase
        self.entity = entity
        self.relationship = relationship
    }

    /// Notes that the batch being written goes through `count` more rows of the step.
    func advance(by count: Int) {
        pending = min(stepEnd, (pending ?? rows) + count)
    }

    /// Forgets what the batch being written would have advanced (it did not commit).
    func discard() {
        pending = nil
    }

    /// After a committed batch: advances (to the step's end unless the batch said how far) and reports.
    func committed(_ report: CopyReport) {
        rows = pending ?? stepEnd
        pending = nil
        callback?(step(phase, report: report))
    }

    /// Reports the end of the copy.
    func done(_ report: CopyReport) {
        rows = totalRows
        entity = ""
        relationship = nil
        callback?(step(.done, report: report))
    }

    private func step(_ phase: CopyProgress.Phase, report: CopyReport) -> CopyProgress {
        CopyProgress(
            phase: phase, entity: entity, relationship: relationship, rows: rows, totalRows: totalRows,
            seconds: Date().timeIntervalSince(started), report: report)
    }
}
