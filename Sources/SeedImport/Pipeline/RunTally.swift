// What a run has done so far — records read, per-entity counts, errors — and how it refuses a
// record: with `abort` (or an error the input cannot go on after) the run stops; with `skip`
// the record goes to the rejects file and is counted, until `maxErrors`.
// Invariant: the stages that count or refuse records are handed this one tally by the run;
// the report a run returns or fails with is read from it.
import RecordReaders

/// The running report of an import and its rejection policy.
final class RunTally {
    /// The report so far.
    private(set) var report = ImportReport()
    private let policy: ErrorPolicy
    private let maxErrors: Int
    private let rejectsPath: String?
    private var rejects: RejectsFile?
    /// The resolved file of each source, to tell which source a record refused after the load came from.
    private let sourcePaths: [String]
    /// The source being read (nil after the load).
    private var current: Int?
    /// Each resolved input file's entry in the report's `files`.
    private var fileIndex: [String: Int] = [:]

    /// A tally of `plan`'s sources refusing records by `policy`, up to `maxErrors` with `skip`,
    /// writing them to the file at `rejectsPath` (when given).
    init(plan: ImportPlan, store: String, policy: ErrorPolicy, maxErrors: Int, rejectsPath: String?) {
        report.store = store
        report.sources = plan.sources.map { SourceCounts(file: $0.file, entity: $0.entity) }
        sourcePaths = plan.sources.map { plan.resolve($0.file) }
        for (source, path) in zip(plan.sources, sourcePaths) {
            if let known = fileIndex[path] {
                report.files[known].sources += 1
            } else {
                fileIndex[path] = report.files.count
                report.files.append(FileReads(file: source.file))
                report.files[report.files.count - 1].sources = 1
            }
        }
        self.policy = policy
        self.maxErrors = maxErrors
        self.rejectsPath = rejectsPath
    }

    /// Records read from now on come from the source numbered `index` (nil: the load is over).
    func reading(source index: Int?) {
        current = index
    }

    /// Counts a pass over the input file at `path` (resolved) of `bytes`.
    func countPass(over path: String, bytes: Int) {
        guard let index = fileIndex[path] else { return }
        report.files[index].passes += 1
        report.files[index].bytes += bytes
    }

    /// Adds what convention mapping left out to the report.
    func note(_ lines: [String]) {
        report.notes += lines
    }

    /// Counts one record read.
    func countRecord() {
        report.records += 1
        if let current { report.sources[current].records += 1 }
    }

    /// Updates the counts of `entity`.
    func count(_ entity: String, _ update: (inout EntityCounts) -> Void) {
        report.count(entity, update)
    }

    /// Marks the run as ended after `seconds`, committed or not.
    func end(seconds: Double, committed: Bool) {
        report.seconds = seconds
        report.committed = committed
    }

    /// Keeps `error` as the one that stopped the run (unless it is kept already).
    func keepFatal(_ error: RecordError) {
        if !report.errors.contains(error) { report.errors.append(error) }
    }

    /// How many more records may be refused before the run stops (0 with `abort`).
    var errorBudget: Int {
        policy == .skip ? max(0, maxErrors - report.errors.count) : 0
    }

    /// Refuses a record: with `abort` (or when `fatal`) the run stops with `error`; with `skip`
    /// the record is written to the rejects file and counted, and the run stops once more than
    /// `maxErrors` records were refused.
    func reject(_ error: RecordError, record: SourceRecord?, entity: String, fatal: Bool = false) throws {
        report.errors.append(error)
        report.count(entity) { $0.rejected += 1 }
        report.rejected += 1
        // After the load, the source whose file the error names (for its entity, when several share it).
        let source =
            current
            ?? sourcePaths.indices.first { sourcePaths[$0] == error.file && report.sources[$0].entity == entity }
            ?? sourcePaths.firstIndex(of: error.file)
        if let source { report.sources[source].rejected += 1 }
        guard policy == .skip, !fatal else { throw error }
        if rejects == nil, let rejectsPath {
            rejects = try RejectsFile(path: rejectsPath)
        }
        try rejects?.write(error, record: record)
        if report.errors.count > maxErrors {
            throw ImportFailure(
                report: report, reason: "more than \(maxErrors) rejected records (maxErrors); nothing was imported")
        }
    }
}
