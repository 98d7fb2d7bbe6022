// What a migration knows about the app's models: every version, the mapping models between
// some of them, the order to walk them in, the Swift code some mappings need (policies) and
// code to run at chosen versions (hooks).
import GraphStore
import ModelFiles

/// The model versions a store can be migrated through, and how.
///
/// ```swift
/// var source = MigrationSource(versions: try ModelVersionSet.load(from: "Model.xcdatamodeld"))
/// source.mappings = [try MappingModelReader.readMappingModel(at: URL(fileURLWithPath: "Model2toModel3.xcmappingmodel"))]
/// source.policies.register("V2to3MakerPolicy", MakerPolicy())
/// ```
public struct MigrationSource: Sendable {
    /// Every version of the model and the current one.
    public var versions: ModelVersionSet
    /// Mapping models between versions; a mapping model replaces inference for its pair.
    public var mappings: [MappingModel]
    /// Where each mapping model was read from (by index into `mappings`), for reports; optional.
    public var mappingFiles: [String]
    /// The order of the versions; nil: the order their names give (docs/Migration.md, "Chains").
    public var chain: MigrationChain?
    /// The Swift migration policies mapping models name.
    public var policies: MigrationPolicies
    /// Code run on the store at chosen versions during the migration.
    public var hooks: [MigrationHook]

    /// A source of `versions`, with no mapping models, policies or hooks.
    public init(
        versions: ModelVersionSet, mappings: [MappingModel] = [], mappingFiles: [String] = [],
        chain: MigrationChain? = nil, policies: MigrationPolicies = MigrationPolicies(), hooks: [MigrationHook] = []
    ) {
        self.versions = versions
        self.mappings = mappings
        self.mappingFiles = mappingFiles
        self.chain = chain
        self.policies = policies
        self.hooks = hooks
    }

    /// The file `mappings[index]` was read from, or its versions when unknown.
    func mappingName(_ index: Int) -> String {
        index < mappingFiles.count
            ? mappingFiles[index]
            : "\(mappings[index].source.versionName) → \(mappings[index].destination.versionName)"
    }
}
