// The public entry point of plan-driven imports: run a validated plan (read from a file once,
// or built in code) into a store on a thread of its own, with progress as an AsyncSequence.
import Foundation
import GraphStore

/// Runs an import plan.
///
/// ```swift
/// let importer = try Importer(planFile: "Seeds/plan.yaml")
/// Task { for await step in importer.progress { print(step.records) } }
/// let report = try await importer.run()
/// print(report.summary)
/// ```
public final class Importer: Sendable {
    /// The plan.
    public let plan: ImportPlan
    /// The run's options.
    public let options: ImportOptions
    /// Progress updates while the import runs; finishes when it ends.
    public let progress: AsyncStream<ImportProgress>
    private let continuation: AsyncStream<ImportProgress>.Continuation
    /// The plan's model, when known before the run (else loaded when it starts).
    private let model: ObjectModel?
    private let planFile: String

    /// An importer for a plan and its model, read and validated once (see ``ValidatedPlan``).
    public init(plan: ValidatedPlan, options: ImportOptions = ImportOptions()) {
        self.plan = plan.plan
        model = plan.model
        planFile = plan.path
        self.options = options
        (progress, continuation) = AsyncStream.makeStream(
            of: ImportProgress.self, bufferingPolicy: .bufferingNewest(16))
    }

    /// An importer for `plan`; `model` overrides the plan's `model:` (else it is loaded from the
    /// plan, or taken from the existing store, when the run starts).
    public init(
        plan: ImportPlan, model: ObjectModel? = nil, options: ImportOptions = ImportOptions(), planFile: String = "plan"
    ) {
        self.plan = plan
        self.model = model
        self.planFile = planFile
        self.options = options
        (progress, continuation) = AsyncStream.makeStream(
            of: ImportProgress.self, bufferingPolicy: .bufferingNewest(16))
    }

    /// An importer for the plan file at `path`, validated against its model; `layout` and
    /// `template` (an absolute path, or relative to the plan's folder) override the plan's.
    ///
    /// - Throws: ``PlanErrors`` naming every problem with its line and column.
    public convenience init(
        planFile path: String, options: ImportOptions = ImportOptions(), layout: StoreLayoutKind? = nil,
        template: String? = nil
    ) throws {
        let validated = try ValidatedPlan(file: path, store: options.store)
        var plan = validated.plan
        plan.layout = layout ?? plan.layout
        plan.template = template ?? plan.template
        self.init(plan: plan, model: validated.model, options: options, planFile: path)
    }

    /// Runs the import on a thread of its own and returns its report. A new store is laid out as
    /// the plan's `layout:` (or `template:`) says.
    ///
    /// Cancelling the task that awaits it stops the run between batches and puts the store back
    /// as it was: a store the run created is removed with its side files, in a store that
    /// existed the run is undone.
    ///
    /// - Throws: ``ImportFailure`` (nothing of the run remains in the store), ``PlanErrors``, or
    ///   `CancellationError`.
    public func run() async throws -> ImportReport {
        let plan = self.plan
        let options = self.options
        let planFile = self.planFile
        let continuation = self.continuation
        let model: ObjectModel
        do {
            try Task.checkCancellation()
            model = try self.model ?? ValidatedPlan.model(for: plan, store: options.store)
        } catch {
            continuation.finish()
            throw error
        }
        return try await BlockingWork.run(name: "seedkit.import") { cancellation in
            defer { continuation.finish() }
            let run = ImportRun(
                plan: plan, model: model, planFile: planFile, options: options, cancellation: cancellation
            ) { step in
                options.onProgress?(step)
                continuation.yield(step)
            }
            return try run.execute()
        }
    }
}
