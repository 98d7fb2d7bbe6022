// Every mapping of a plan compiled against the model once per run and numbered: mappings
// (nested and routed ones included), relationship mappings and lookups (the keys and reference matches
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
    /// Whether the run's key index learns every row the run writes that each lookup may find
    /// (every mapping and `missing: create` reference writing rows of its entity or a
    /// sub-entity keys them by it), by lookup number. Otherwise (a source without a key, one
    /// keyed by other attributes, a `match` on attributes no source keys by, a sub-entity's
    /// records keyed by their parent's key) the index cannot say a key is absent: references
    /// by it wait for the store after the load, and records keyed by it are set aside.
    let indexedLookups: [Bool]
    /// The relationship mappings whose links some lookup goes through (a key or a match
    /// naming to-one relationships), by number: resolved first after the load, so that
    /// records and references find objects by them.
    let throughRelationships: Set<Int>
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
        var compiler = MappingCompiler(model: model, planFile: planFile)
        compiler.planSources = plan.sources.map(\.mapping)
        var sources: [CompiledMapping] = []
        for (index, source) in plan.sources.enumerated() {
            let format = source.format ?? RecordFormat(path: source.file)
            let tabular = format?.isTabular == true
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
            mapping.routes?.ordered.forEach(collect)
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
        // Who writes rows a lookup may find, the lookup each learns them under, and which
        // attributes a destination created for a reference holds (its match; nil: any).
        let writers =
            mappings.filter { $0.routes == nil }.map {
                (entity: $0.entity, lookup: $0.keyLookup, holds: Set<Int>?.none)
            }
            + relationships.filter { $0.missing == .create }.map {
                (
                    entity: model.entities[$0.lookup.entityIndex], lookup: Optional($0.lookup),
                    holds: Set($0.lookup.slots)
                )
            }
        var steps: [(entity: ModelEntity, relationship: String)] = []
        func collectSteps(_ lookup: LookupID) {
            let entity = model.entities[lookup.entityIndex]
            for step in lookup.through {
                steps.append((entity, entity.relationships[step.relationship].name))
                collectSteps(step.lookup)
            }
        }
        lookups.forEach(collectSteps)
        let numbered = zip(order.map { relationships[$0] }, order.map { owners[$0] })
        throughRelationships = Set(
            numbered.enumerated().compactMap { number, item in
                let (relationship, owner) = item
                return steps.contains {
                    owner.entity.isKind(of: $0.entity) && $0.relationship == relationship.relationship.name
                } ? number : nil
            })
        indexedLookups = lookups.map { lookup in
            let entity = model.entities[lookup.entityIndex]
            // A nested relationship's destination lookup (no parts) is never looked up.
            guard !lookup.isRunIdentity, !lookup.isEmpty else { return true }
            return writers.allSatisfy { writer in
                guard writer.entity.isKind(of: entity), writer.lookup != lookup else { return true }
                // A created destination has no value but its match and defaults (no link): it has
                // a key of this lookup only if those give every attribute of it.
                guard let holds = writer.holds else { return false }
                return lookup.goesThrough
                    || !lookup.slots.allSatisfy {
                        holds.contains($0) || entity.attributes[$0].declaration.defaultValue != nil
                    }
            }
        }
    }

    /// The number of `lookup` (nil for a lookup the plan does not have).
    func number(of lookup: LookupID) -> Int? {
        lookupNumbers[lookup]
    }
}
