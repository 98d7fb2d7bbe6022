// A plan file read once and checked against its model, ready to run: what `Importer` runs, and
// what callers that need the plan themselves (seed builds, first launch) read once and hand
// over, so neither the plan nor the model is loaded twice.
import Foundation
import GraphStore
import ModelFiles

/// A plan file, its model, and the proof that the plan fits the model.
///
/// ```swift
/// let plan = try ValidatedPlan(file: "Seeds/plan.yaml")
/// print(plan.plan.seedVersion ?? "-", plan.model.entities.count)
/// let report = try await Importer(plan: plan).run()
/// ```
public struct ValidatedPlan: Sendable {
    /// The plan.
    public let plan: ImportPlan
    /// The model the plan was validated against.
    public let model: ObjectModel
    /// The plan file's path (it names the plan in errors).
    public let path: String

    /// Reads the plan file at `path` and validates it against its model: the plan's `model:`,
    /// or else the model of the existing store at `store` (or the plan's `store:`).
    ///
    /// - Throws: ``PlanErrors`` naming every problem with its line and column, a model file's
    ///   error, or ``ImportFailure`` when there is no model to take.
    public init(file path: String, store: String? = nil) throws {
        let file = try PlanFile.load(from: path)
        try self.init(file, model: try Self.model(for: file.plan, store: store), path: path)
    }

    /// Validates the plan file `file`, read from `path` already, against `model`, loaded already.
    ///
    /// - Throws: ``PlanErrors`` naming every problem with its line and column.
    public init(_ file: PlanFile, model: ObjectModel, path: String) throws(PlanErrors) {
        let problems = file.validate(model: model).filter { $0.severity == .error }
        if !problems.isEmpty { throw PlanErrors(problems) }
        self.init(plan: file.plan, model: model, path: path)
    }

    private init(plan: ImportPlan, model: ObjectModel, path: String) {
        self.plan = plan
        self.model = model
        self.path = path
    }

    /// The model a plan names, or the model of its existing store (`store`, else the plan's).
    ///
    /// - Throws: a model file's error, or ``ImportFailure`` when the plan names no model and
    ///   there is no store to take one from.
    public static func model(for plan: ImportPlan, store: String? = nil) throws -> ObjectModel {
        if let model = plan.model {
            return try ModelLoader.load(from: plan.resolve(model))
        }
        guard let store = store ?? plan.store.map(plan.resolve), FileManager.default.fileExists(atPath: store) else {
            throw ImportFailure(
                report: ImportReport(), reason: "the plan names no model and there is no store to take one from")
        }
        return try PersistentStore.metadata(at: store).model(source: store)
    }
}
