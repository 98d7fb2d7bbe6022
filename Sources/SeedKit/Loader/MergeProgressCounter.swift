// Turns a deep copy's per-batch reports into first-launch progress.
import DeepCopy

/// Numbers a merge's batches and counts the seed objects handled so far.
final class MergeProgressCounter: Sendable {
    private let total: Int
    private let steps = ProgressSteps()

    /// A counter for a seed holding `total` objects.
    init(total: Int) {
        self.total = total
    }

    /// The progress after the batch that produced `report` (objects copied, matched or skipped
    /// so far; batches that write links leave the count as it is).
    func update(_ report: CopyReport) -> SeedLoader.Progress {
        let objects = report.entities.values.reduce(0) { $0 + $1.copied + $1.matched + $1.skipped }
        return SeedLoader.Progress(phase: .merging, completed: objects, total: total, step: steps.next())
    }
}
