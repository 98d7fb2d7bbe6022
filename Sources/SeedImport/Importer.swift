// The public entry point of plan-driven imports: run a plan (file or Swift value) into a store
// on a thread of its own, with progress as an AsyncSequence.
import Foundation
import GraphStore
import ModelFiles

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
    private let planFile: String
    private let model: ObjectModel?

    /// An importer for `plan`; `model` overrides the plan's `model:` (else it is loaded from the
    /// plan, or taken from the existing store).
    public init(
        plan: ImportPlan, model: ObjectModel? = nil, options: ImportOptions = ImportOptions(), planFile: String = "plan"
    ) {
        self.plan = plan
        self.model = model
        self.options = options
        self.planFile = planFile
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
        let file = try PlanFile.load(from: path)
        var plan = file.plan
        plan.layout = layout ?? plan.layout
        plan.template = template ?? plan.template
        let model = try Self.loadModel(for: plan, options: options)
        let problems = file.validate(model: model).filter { $0.severity == .error }
        if !problems.isEmpty { throw PlanErrors(problems) }
        self.init(plan: plan, model: model, options: options, planFile: path)
    }

    /// Runs the import on a thread of its own and returns its report. A new store is laid out as
    /// the plan's `layout:` says (in Core Data's layout it is made before the run, and removed
    /// again should the run fail).
    ///
    /// - Throws: ``ImportFailure`` (nothing of the run remains in the store), or ``PlanErrors``.
    public func run() async throws -> ImportReport {
        let plan = self.plan
        let options = self.options
        let planFile = self.planFile
        let continuation = self.continuation
        let model = try self.model ?? Self.loadModel(for: plan, options: options)
        return try await BlockingWork.run(name: "seedkit.import") { _ in
            defer { continuation.finish() }
            let newStore = try NewStoreLayout(plan: plan, model: model, options: options)
            let run = ImportRun(plan: plan, model: model, planFile: planFile, options: options) {
                continuation.yield($0)
            }
            do {
                let report = try run.execute()
                newStore.finish(succeeded: true, dryRun: options.dryRun)
                return report
            } catch {
                newStore.finish(succeeded: false, dryRun: options.dryRun)
                throw error
            }
        }
    }

    /// The model a plan names, or the model of its existing store.
    static func loadModel(for plan: ImportPlan, options: ImportOptions) throws -> ObjectModel {
        if let model = plan.model {
            return try ModelLoader.load(from: plan.resolve(model))
        }
        guard let store = options.store ?? plan.store.map(plan.resolve), FileManager.default.fileExists(atPath: store)
        else {
            throw ImportFailure(
                report: ImportReport(), reason: "the plan names no model and there is no store to take one from")
        }
        let metadata = try PersistentStore.metadata(at: store)
        if metadata.layout == StoreLayoutKind.coreData.rawValue {
            throw ImportFailure(
                report: ImportReport(),
                reason: "\(store) is a Core Data store, which holds no model: name its Xcode model in the plan (model:)"
            )
        }
        return try metadata.model(source: store)
    }
}
