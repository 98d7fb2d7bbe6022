// Checks a plan against the model and the file system before anything is imported: the run-wide
// settings, each source's file, format, CSV options and records path (this file), and each
// mapping's entity, key, attributes and relationships (PlanValidator+Mappings.swift).
// Invariants: validation never throws and never stops at the first problem; every problem names
// the key path at fault and, when the plan came from a file, the nearest line:column; problems
// come out in file order (plans built in Swift: in plan order).
import Foundation
import GraphStore
import RecordReaders

/// Finds every problem in a plan before it runs.
///
/// ```swift
/// let file = try PlanFile.load(from: "plan.yaml")
/// let problems = PlanValidator().validate(file.plan, model: model, positions: file.positions)
/// let errors = problems.filter { !$0.isWarning }
/// if !errors.isEmpty { throw PlanErrors(errors) }
/// ```
///
/// What it checks, and which problems are only warnings, is listed in docs/PlanFormat.md.
public struct PlanValidator: Sendable {
    /// Whether source files must exist and have content that fits their format.
    public var checksFiles: Bool

    /// A validator; `checksFiles: false` checks the plan and the model only.
    public init(checksFiles: Bool = true) {
        self.checksFiles = checksFiles
    }

    /// Every problem in `plan` with `model`: errors (the plan cannot run) and warnings.
    ///
    /// - Parameters:
    ///   - plan: the plan to check.
    ///   - model: the model the plan imports into.
    ///   - positions: where the plan's elements were written (``PlanFile/positions``); nil for
    ///     plans built in Swift, whose problems then carry key paths only.
    public func validate(_ plan: ImportPlan, model: ObjectModel, positions: PlanPositions? = nil) -> [PlanError] {
        var check = PlanCheck(
            plan: plan, model: model, positions: positions ?? PlanPositions(), checksFiles: checksFiles)
        check.checkPlan()
        return check.problemsInFileOrder()
    }
}

/// How a source's records are read: what field paths and options mean depends on it.
struct SourceContext {
    /// The source's format, if known.
    let format: RecordFormat?
    /// For CSV and TSV: whether the first row names the columns.
    let hasHeader: Bool

    /// Whether fields are CSV or TSV columns.
    var isTabular: Bool { format?.isTabular == true }
}

/// One validation run: the plan, the model, and the problems found so far.
struct PlanCheck {
    let plan: ImportPlan
    let model: ObjectModel
    let positions: PlanPositions
    let checksFiles: Bool
    private var problems: [PlanError] = []

    init(plan: ImportPlan, model: ObjectModel, positions: PlanPositions, checksFiles: Bool) {
        self.plan = plan
        self.model = model
        self.positions = positions
        self.checksFiles = checksFiles
    }

    /// Records a problem at `keyPath`, positioned at the nearest element the file gave
    /// (at its key rather than its value when `onKey`).
    mutating func report(
        _ message: String, at keyPath: String, onKey: Bool = false, severity: PlanError.Severity = .error
    ) {
        problems.append(
            PlanError(
                file: positions.file, position: positions.nearest(to: keyPath, preferKey: onKey), keyPath: keyPath,
                message: message, severity: severity))
    }

    /// Whether the plan file gave the element at `keyPath`.
    func given(_ keyPath: String) -> Bool {
        positions.contains(keyPath)
    }

    /// The key path of a list's `index`-th element; the list's own when it was written as a
    /// single text (`key: sku`) or built in Swift with one element.
    func elementPath(_ listPath: String, _ index: Int, count: Int) -> String {
        let path = PlanKeyPath.element(listPath, index)
        return count > 1 || given(path) ? path : listPath
    }

    /// The problems, in file order.
    func problemsInFileOrder() -> [PlanError] {
        PlanErrors.inFileOrder(problems)
    }

    // MARK: - The run

    mutating func checkPlan() {
        if plan.batchSize < 1 {
            report("batchSize must be at least 1, not \(plan.batchSize)", at: "batchSize")
        }
        if plan.maxErrors < 0 {
            report("maxErrors must not be negative, not \(plan.maxErrors)", at: "maxErrors")
        }
        if plan.onError == .abort {
            for (key, isSet) in [("maxErrors", given("maxErrors")), ("rejects", plan.rejects != nil)] where isSet {
                report(
                    "\(key) has no effect with onError: abort (it applies when bad records are skipped: "
                        + "onError: skip, or --on-error skip)", at: key, severity: .warning)
            }
        }
        if plan.sources.isEmpty {
            report("the plan has no sources: it imports nothing", at: "sources", severity: .warning)
        }
        for (index, source) in plan.sources.enumerated() {
            checkSource(source, at: PlanKeyPath.element("sources", index))
        }
    }

    // MARK: - Sources

    private mutating func checkSource(_ source: SourcePlan, at path: String) {
        let format = source.format ?? RecordFormat(path: source.file)
        if format == nil {
            report(
                "cannot tell the format of '\(source.file)' from its extension: give format: (csv, tsv, json, ndjson or xml)",
                at: PlanKeyPath.child(path, "file"))
        }
        if checksFiles {
            checkFile(of: source, format: format, at: path)
        }
        checkCSVOptions(source.csv, format: format, at: PlanKeyPath.child(path, "csv"))
        checkRecords(source.records, format: format, at: PlanKeyPath.child(path, "records"))
        let context = SourceContext(format: format, hasHeader: source.csv?.header ?? true)
        checkMapping(source.mapping, at: path, context: context)
    }

    /// The file exists, is a file, and starts the way its format does.
    private mutating func checkFile(of source: SourcePlan, format: RecordFormat?, at path: String) {
        let resolved = plan.resolve(source.file)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory) else {
            report("file not found: \(resolved)", at: PlanKeyPath.child(path, "file"))
            return
        }
        guard !isDirectory.boolValue else {
            report("\(resolved) is a folder, not a file", at: PlanKeyPath.child(path, "file"))
            return
        }
        if let format, let mismatch = PlanSourceSniffer.mismatch(at: resolved, format: format) {
            let key = source.format == nil ? "file" : "format"
            report("\(source.file) \(mismatch)", at: PlanKeyPath.child(path, key))
        }
    }

    private mutating func checkCSVOptions(_ options: CSVPlanOptions?, format: RecordFormat?, at path: String) {
        guard let options else { return }
        if let format, !format.isTabular {
            report("csv options apply to csv and tsv sources, not \(format.rawValue)", at: path)
            return
        }
        if let delimiter = options.delimiter, !Self.isSingleASCII(delimiter) {
            report(
                "delimiter must be one ASCII character other than a line break, not '\(delimiter)'",
                at: PlanKeyPath.child(path, "delimiter"))
        }
        if let quote = options.quote, !quote.isEmpty, !Self.isSingleASCII(quote) {
            report(
                "quote must be one ASCII character other than a line break, or \"\" for none, not '\(quote)'",
                at: PlanKeyPath.child(path, "quote"))
        }
        if let delimiter = options.delimiter, delimiter == options.quote {
            report("delimiter and quote must differ (both are '\(delimiter)')", at: PlanKeyPath.child(path, "quote"))
        }
    }

    private static func isSingleASCII(_ text: String) -> Bool {
        guard text.utf8.count == 1, let byte = text.utf8.first else { return false }
        return byte < 0x80 && byte != 0x0A && byte != 0x0D
    }

    private mutating func checkRecords(_ records: String?, format: RecordFormat?, at path: String) {
        guard let records, let format else { return }
        let problem: String?
        switch format {
        case .json: problem = PlanPathRules.jsonRecordsProblem(records)
        case .xml: problem = PlanPathRules.xmlRecordsProblem(records)
        case .csv, .tsv, .ndjson:
            report("records applies to json and xml sources; every \(format.rawValue) record is read", at: path)
            return
        }
        if let problem {
            report("records '\(records)' \(problem)", at: path)
        }
    }
}
