// Every mapping of a plan compiled against the model once per run and numbered: mappings
// (nested ones included), relationship mappings and lookups (the keys and reference matches
// of the plan, one number per distinct entity and attributes). Prepared records and staged
// references name them by these numbers, and the stages find what a number stands for in these
// arrays — no lookup by name or hash per record.
// Invariant: the same plan and model number everything the same way in every run (a resumed run
// reads the numbers a killed one staged).
import GraphStore
import RecordReaders

/// The compiled mappings of a plan, by number.
struct PlanMappings: Sendable {
    /// The mapping of each source, in plan order.
    let sources: [CompiledMapping]
    /// Every mapping, by its number.
    let mappings: [CompiledMapping]
    /// Every relationship mapping, by its number.
    let relationships: [CompiledRelationship]
    /// The mapping each relationship mapping belongs to (its owners' mapping), by relationship number.
    let owners: [CompiledMapping]
    /// Every lookup, by its number.
    let lookups: [LookupID]
    /// The number of each mapping's key lookup (nil: no key), by mapping number.
    let keyLookups: [Int?]
    /// The number of each relationship mapping's destination lookup, by relationship number.
    let referenceLookups: [Int]
    /// Whether the records of each mapping note where each key they write was first written
    /// (their key lookup is the key of a mapping with `onConflict: fail`, whose errors name the
    /// record that wrote the key first), by mapping number.
    let notesFirstWriters: [Bool]
    /// What convention mapping left out, one line each: fields a source's header lacks,
    /// attributes no codec can build.
    let notes: [String]
    private let lookupNumbers: [LookupID: Int]

    /// Compiles the mappings of `plan` against `model`; `header` gives the header of each source
    /// (by index) that has one, so that fields are checked against it before anything is written.
    ///
    /// - Throws: ``PlanErrors`` naming the source and key of what does not compile.
    init(
        plan: ImportPlan, model: ObjectModel, planFile: String,
        header: (Int) throws(PlanErrors) -> SourceHeader? = { _ in nil }
    ) throws(PlanErrors) {
        let compiler = MappingCompiler(model: model, planFile: planFile)
        var sources: [CompiledMapping] = []
        for (index, source) in plan.sources.enumerated() {
            let format = source.format ?? RecordFormat(path: source.file)
            let tabular = format == .csv || format == .tsv
            sources.append(
                try compiler.compile(
                    source.mapping, path: "sources[\(index)]", listSeparator: tabular ? ";" : nil,
                    header: try header(index), scope: .init(holdsRecords: !tabular)))
        }
        notes = compiler.notes.lines
        var mappings: [CompiledMapping] = []
        var relationships: [CompiledRelationship] = []
        var owners: [CompiledMapping] = []
        func collect(_ mapping: CompiledMapping) {
            mappings.append(mapping)
            for relationship in mapping.relationships {
                relationships.append(relationship)
                owners.append(mapping)
                relationship.nestedMappings.forEach(collect)
            }
        }
        sources.forEach(collect)
        mappings.sort { $0.number < $1.number }
        let order = relationships.indices.sorted { relationships[$0].number < relationships[$1].number }
        var lookups: [LookupID] = []
        var numbers: [LookupID: Int] = [:]
        func number(_ lookup: LookupID) -> Int {
            if let known = numbers[lookup] { return known }
            numbers[lookup] = lookups.count
            lookups.append(lookup)
            return lookups.count - 1
        }
        self.sources = sources
        self.mappings = mappings
        self.relationships = order.map { relationships[$0] }
        self.owners = order.map { owners[$0] }
        let keyLookups = mappings.map { $0.keyLookup.map(number) }
        self.keyLookups = keyLookups
        referenceLookups = order.map { number(relationships[$0].lookup) }
        let failing = Set(mappings.indices.compactMap { mappings[$0].onConflict == .fail ? keyLookups[$0] : nil })
        notesFirstWriters = keyLookups.map { $0.map(failing.contains) ?? false }
        self.lookups = lookups
        lookupNumbers = numbers
    }

    /// The number of `lookup` (nil for a lookup the plan does not have).
    func number(of lookup: LookupID) -> Int? {
        lookupNumbers[lookup]
    }
}
