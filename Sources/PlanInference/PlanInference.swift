// A plan from sample files (`seedkit plan infer`): reads the first records of each file, and drafts
// plan.yaml — and, without a model, model.yaml — for a person to check and edit. The draft is
// checked before it is handed out: the model must load and the plan must pass the validator
// (its files aside: they were just read, and the plan's folder may not exist yet).
import Foundation
import GraphStore
import ModelFiles
import SeedImport

/// Drafts a plan (and a model) from the first records of source files.
///
/// ```swift
/// var inference = PlanInference(files: ["items.csv", "lists.csv"], folder: "Draft")
/// let draft = try inference.run()
/// try draft.plan.write(toFile: "Draft/plan.yaml", atomically: true, encoding: .utf8)
/// try draft.model?.write(toFile: "Draft/model.yaml", atomically: true, encoding: .utf8)
/// ```
public struct PlanInference: Sendable {
    /// The drafted files' texts.
    public struct Result: Sendable {
        /// The plan (plan.yaml).
        public var plan: String
        /// The model (model.yaml), when none was given.
        public var model: String?
        /// One line per source: its file, records, entity, key and how many records were read.
        public var summary: [String]
    }

    /// The name of the drafted plan file.
    public static let planFileName = "plan.yaml"
    /// The name of the drafted model file.
    public static let modelFileName = "model.yaml"

    /// The sample files (CSV, TSV, JSON, NDJSON, XML), in the order the plan imports them.
    public var files: [String]
    /// The folder the plan will be written to (its paths are relative to it).
    public var folder: String
    /// The model the plan uses (a model file, an Xcode model, or a store); nil drafts one.
    public var modelPath: String?
    /// The entity of the records (one source only); nil finds it from the file names.
    public var entity: String?
    /// The records of a JSON or XML file (one file only); nil finds them.
    public var records: String?
    /// How many records of each source are read.
    public var sampleSize: Int

    /// An inference over `files`, for a plan written into `folder`.
    public init(
        files: [String], folder: String, modelPath: String? = nil, entity: String? = nil, records: String? = nil,
        sampleSize: Int = 1000
    ) {
        self.files = files
        self.folder = folder
        self.modelPath = modelPath
        self.entity = entity
        self.records = records
        self.sampleSize = sampleSize
    }

    /// Reads the samples and drafts the files.
    ///
    /// - Throws: ``InferenceError`` for an unreadable file, an option that does not fit (two
    ///   sources and one `--entity`), a model entity that cannot be found; the readers' errors for
    ///   a malformed file; and, should the draft not load or validate, the problems found.
    public func run(loadingModel load: (String) throws -> ObjectModel = ModelLoader.load(from:)) throws -> Result {
        guard !files.isEmpty else { throw InferenceError("give at least one file") }
        guard sampleSize > 0 else { throw InferenceError("the sample size must be at least 1") }
        if records != nil, files.count > 1 { throw InferenceError("--records applies to one file") }
        let samples = try files.flatMap { file in
            try RecordSampler.samples(of: file, records: records, limit: sampleSize)
        }
        if entity != nil, samples.count > 1 {
            throw InferenceError(
                "--entity names the entity of one source, but the files hold \(samples.count): "
                    + samples.map { sample in sample.records.map { "\(sample.file) (\($0))" } ?? sample.file }.joined(
                        separator: ", "))
        }
        let output = URL(fileURLWithPath: folder).standardizedFileURL
        let given = try modelPath.map { path in (path, try load(path)) }
        let paths = DraftPaths(
            folder: output,
            modelFile: given?.0 ?? output.appendingPathComponent(Self.modelFileName).path,
            modelName: given?.1.name ?? DraftPaths.modelName(forFolderOf: files[0]))
        let draft: Draft
        if let model = given?.1 {
            draft = try ModelMapper(model: model, samples: samples, entityName: entity).draft(paths: paths)
        } else {
            draft = ModelDrafter(samples: samples, entityName: entity).draft(paths: paths)
        }
        let sampled = samples.map { "\(URL(fileURLWithPath: $0.file).lastPathComponent) (\($0.recordCount))" }
        let plan = DraftWriter.plan(
            draft,
            header: [
                "Drafted by `seedkit plan infer` from the first records of " + sampled.joined(separator: ", ") + ".",
                "Check it with `seedkit import \(Self.planFileName) --dry-run`; the comments mark guesses to review.",
            ])
        let modelText = draft.entities.map { entities in
            DraftWriter.model(
                draft, entities: entities,
                header: ["Drafted by `seedkit plan infer`: an entity per source, types from the sampled values."])
        }
        try check(plan: plan, model: modelText, folder: output, given: given?.1)
        return Result(plan: plan, model: modelText, summary: zip(samples, draft.sources).map(Self.summary))
    }

    /// Loads the drafted model and validates the drafted plan against it, as an import would.
    private func check(plan: String, model: String?, folder: URL, given: ObjectModel?) throws {
        let objectModel: ObjectModel
        if let model {
            objectModel = try ModelFile.parse(yaml: model, source: Self.modelFileName)
                .objectModel(source: Self.modelFileName)
        } else if let given {
            objectModel = given
        } else {
            return
        }
        // The folder may not exist yet, so files are not checked through it (`Draft/../items.csv`
        // does not resolve without `Draft`); the samples were read, so they exist.
        let file = try PlanFile.parse(
            plan, syntax: .yaml, source: folder.appendingPathComponent(Self.planFileName).path,
            baseDirectory: folder.path)
        let errors = file.validate(model: objectModel, checksFiles: false).filter { !$0.isWarning }
        guard errors.isEmpty else {
            throw InferenceError(
                "the drafted plan does not validate: " + errors.map(\.description).joined(separator: "; "))
        }
    }

    /// `items.csv → Item, key [sku], 5 records read`.
    private static func summary(_ sample: SourceSample, _ source: DraftSource) -> String {
        let origin = sample.records.map { "\(sample.file) (\($0))" } ?? sample.file
        let key = source.mapping.key.isEmpty ? "no key" : "key [\(source.mapping.key.joined(separator: ", "))]"
        let records = sample.recordCount == 1 ? "1 record" : "\(sample.recordCount) records"
        return "\(origin) → \(source.mapping.entity), \(key), \(records) read"
    }
}
