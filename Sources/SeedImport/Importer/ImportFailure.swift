// The error an import throws when it fails: the reason in one line, and the report of what it
// had done (nothing of which remains in the store).

/// A failed import.
public struct ImportFailure: Error, Sendable, CustomStringConvertible {
    /// The report up to the failure (its `committed` is false).
    public var report: ImportReport
    /// Why the run failed, in one line.
    public var reason: String

    /// A failure for `reason`.
    public init(report: ImportReport, reason: String) {
        self.report = report
        self.reason = reason
    }

    /// The reason.
    public var description: String { reason }

    func with(report: ImportReport) -> ImportFailure {
        ImportFailure(report: report, reason: reason)
    }
}
