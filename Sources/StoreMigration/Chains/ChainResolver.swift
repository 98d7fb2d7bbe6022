// From the store's metadata and the app's versions to the passes a migration runs (docs/Migration.md,
// "Chains"): the store's version is the latest version with its model hash (equal hashes are
// interchangeable for the store) — for a Core Data store, with its entity version hashes — else
// the store's embedded model migrated directly (a Core Data store embeds none: refused); the order is
// the chain given or the one the names give; along the path each version takes the furthest
// mapping model that starts there and ends at or before the target, else infers the step to the
// next version; consecutive inferred steps compose into one pass, and a mapping model or a hook's
// version ends a pass. A store later than the target is refused unless a chain leads there.
// Invariant: everything here reads models and metadata only; nothing is written.
import GraphStore
import ModelFiles

/// One pass as the chain resolves it, before its SQL is compiled.
struct PassSpec {
    /// What the pass runs.
    enum Work {
        /// Inferred steps, composed.
        case inferred(InferredMapping)
        /// A mapping model (index into the source's mappings).
        case mapping(Int)
    }

    let work: Work
    /// The version names crossed, `from` first.
    let versions: [String]
    let sourceModel: ObjectModel
    let destinationModel: ObjectModel
    /// The steps, for plans.
    let steps: [MigrationPlan.Step]
    /// Hooks run on the pass's new file once it is built.
    var hooks: [MigrationHook]

    var from: String { versions.first ?? "" }
    var to: String { versions.last ?? "" }
}

/// The resolved chain of a store.
struct ResolvedChain {
    /// The store's version, nil when unknown.
    let sourceVersion: String?
    let sourceHash: String
    let targetVersion: String
    let targetModel: ObjectModel
    /// The passes (none: nothing to do).
    let passes: [PassSpec]
    let warnings: [String]
}

/// Resolves a store's chain.
struct ChainResolver {
    let source: MigrationSource
    let options: MigrationOptions
    /// The store (for errors).
    let store: String

    func resolve(metadata: StoreMetadata) throws -> ResolvedChain {
        let versions = source.versions
        guard let targetName = options.target ?? versions.currentName else {
            throw MigrationError(.noTarget, store: store)
        }
        let target = try model(targetName)
        let candidates = versions.versions.filter { metadata.isAt($0.model) }.map(\.name)
        let storeHash = try storeHash(metadata, candidates: candidates)
        if metadata.isAt(target) {
            return ResolvedChain(
                sourceVersion: latest(of: candidates), sourceHash: storeHash, targetVersion: targetName,
                targetModel: target, passes: [], warnings: [])
        }
        guard !candidates.isEmpty else { return try direct(metadata: metadata, target: target, targetName: targetName) }
        let path = try self.path(from: candidates, to: targetName)
        var warnings = mappingWarnings()
        let steps = try self.steps(along: path)
        let passes = passes(of: steps, path: path, warnings: &warnings)
        return ResolvedChain(
            sourceVersion: path[0], sourceHash: storeHash, targetVersion: targetName, targetModel: target,
            passes: passes,
            warnings: warnings)
    }

    // MARK: - Source version and path

    /// The hash the store's model is known by: its `model.hash`, or for a Core Data store the
    /// model hash of its version (a Core Data store at none of the versions cannot be migrated:
    /// it holds no model to migrate from).
    private func storeHash(_ metadata: StoreMetadata, candidates: [String]) throws -> String {
        guard metadata.coreDataEntityHashes != nil else { return metadata.modelHash ?? "" }
        if let name = latest(of: candidates) { return try model(name).versionHash }
        let digest = metadata["NSStoreModelVersionHashesDigest"] ?? ""
        throw MigrationError(
            .unknownSourceVersion(
                hash: digest,
                changes: [
                    "a Core Data store holds no model, and its entity version hashes (NSStoreModelVersionHashes) match none of the versions"
                ]),
            store: store)
    }

    /// No version has the store's hash: one inferred pass from the store's embedded model.
    private func direct(metadata: StoreMetadata, target: ObjectModel, targetName: String) throws -> ResolvedChain {
        let embedded: ObjectModel
        do {
            embedded = try metadata.model(source: store)
        } catch {
            throw MigrationError(.store("the store's embedded model cannot be read: \(error)"), store: store)
        }
        let hash = metadata.modelHash ?? ""
        let mapping: InferredMapping
        switch infer(from: embedded, to: target) {
        case .success(let inferred): mapping = inferred
        case .failure(let error):
            throw MigrationError(.unknownSourceVersion(hash: hash, changes: error.kind.lines), store: store)
        }
        let from = "unknown version (hash \(hash.prefix(16)))"
        let step = MigrationPlan.Step(
            from: from, to: targetName, kind: .inferred, mapping: nil, changes: mapping.changes)
        return ResolvedChain(
            sourceVersion: nil, sourceHash: hash, targetVersion: targetName, targetModel: target,
            passes: [
                PassSpec(
                    work: .inferred(mapping), versions: [from, targetName], sourceModel: embedded,
                    destinationModel: target,
                    steps: [step], hooks: [])
            ],
            warnings: ["the store's model is none of the versions (hash \(hash.prefix(16))): migrated directly from it"]
        )
    }

    /// The versions from the store's (the latest of `candidates`) to `target`.
    private func path(from candidates: [String], to target: String) throws -> [String] {
        if let chain = source.chain {
            for name in chain.versions where !source.versions.names.contains(name) {
                throw MigrationError(.unknownVersion(name, versions: source.versions.names), store: store)
            }
            let reachable = candidates.compactMap { chain.path(from: $0, to: target) }.sorted { $0.count < $1.count }
            if let path = reachable.first { return path }
            if let candidate = candidates.first(where: { chain.path(from: target, to: $0) != nil }) {
                throw MigrationError(.storeIsNewer(store: candidate, app: target), store: store)
            }
            throw MigrationError(
                .noPath(
                    from: candidates[0], to: target,
                    changes: ["the chain \(chain.text) leads from neither to the other"]),
                store: store)
        }
        let order = try naturalOrder()
        guard let start = candidates.compactMap({ order.firstIndex(of: $0) }).max(),
            let end = order.firstIndex(of: target)
        else { throw MigrationError(.unknownVersion(target, versions: order), store: store) }
        guard start <= end else { throw MigrationError(.storeIsNewer(store: order[start], app: target), store: store) }
        return Array(order[start...end])
    }

    private func naturalOrder() throws -> [String] {
        do {
            return try NaturalVersionOrder.sorted(source.versions.names)
        } catch {
            throw MigrationError(error.kind, store: store)
        }
    }

    /// The latest of `names` in the order (the first when there is none).
    private func latest(of names: [String]) -> String? {
        let order = source.chain?.versions ?? (try? NaturalVersionOrder.sorted(source.versions.names)) ?? []
        return names.max { (order.firstIndex(of: $0) ?? -1) < (order.firstIndex(of: $1) ?? -1) }
    }

    private func model(_ name: String) throws -> ObjectModel {
        guard let version = source.versions.versions.first(where: { $0.name == name }) else {
            throw MigrationError(.unknownVersion(name, versions: source.versions.names), store: store)
        }
        return version.model
    }

    // MARK: - Steps

    /// A step along the path: a mapping model from `from` to a later version, or an inferred step.
    private struct Step {
        let from: Int
        let to: Int
        let work: PassSpec.Work
        let plan: MigrationPlan.Step
    }

    private func steps(along path: [String]) throws -> [Step] {
        var steps: [Step] = []
        var index = 0
        while index < path.count - 1 {
            let furthest = source.mappings.indices.compactMap { mapping -> (mapping: Int, end: Int)? in
                guard source.mappings[mapping].source.versionName == path[index],
                    let end = path.lastIndex(of: source.mappings[mapping].destination.versionName), end > index
                else { return nil }
                return (mapping, end)
            }.max { $0.end < $1.end }
            if let furthest {
                let mapping = source.mappings[furthest.mapping]
                steps.append(
                    Step(
                        from: index, to: furthest.end, work: .mapping(furthest.mapping),
                        plan: MigrationPlan.Step(
                            from: path[index], to: path[furthest.end], kind: .mapping,
                            mapping: source.mappingName(furthest.mapping), changes: Self.describe(mapping))))
                index = furthest.end
                continue
            }
            let mapping: InferredMapping
            switch infer(from: try model(path[index]), to: try model(path[index + 1])) {
            case .success(let inferred): mapping = inferred
            case .failure(let error):
                if case .ambiguousRename = error.kind { throw MigrationError(error.kind, store: store) }
                throw MigrationError(
                    .noPath(from: path[index], to: path[index + 1], changes: error.kind.lines), store: store)
            }
            steps.append(
                Step(
                    from: index, to: index + 1, work: .inferred(mapping),
                    plan: MigrationPlan.Step(
                        from: path[index], to: path[index + 1], kind: .inferred, mapping: nil, changes: mapping.changes)
                ))
            index += 1
        }
        return steps
    }

    /// The inferred mapping between two models, or why there is none.
    private func infer(from: ObjectModel, to: ObjectModel) -> Result<InferredMapping, MigrationError> {
        do {
            return .success(
                try MigrationInference.infer(from: from, to: to, inferLosslessWidening: options.inferLosslessWidening))
        } catch {
            return .failure(error)
        }
    }

    /// The lines a plan shows for a mapping model: each entity mapping, its policy.
    private static func describe(_ mapping: MappingModel) -> [String] {
        mapping.entityMappings.map { entityMapping in
            let what: String
            switch entityMapping.kind {
            case .add: what = "adds \(entityMapping.destinationEntity ?? "")"
            case .remove: what = "removes \(entityMapping.sourceEntity ?? "")"
            case .transform: what = "\(entityMapping.sourceEntity ?? "") → \(entityMapping.destinationEntity ?? "")"
            }
            let policy = entityMapping.policyClassName.map { " (policy \($0))" } ?? ""
            return "\(entityMapping.name): \(what)\(policy)"
        }
    }

    // MARK: - Passes

    /// Consecutive inferred steps without a hook between them compose into one pass.
    private func passes(of steps: [Step], path: [String], warnings: inout [String]) -> [PassSpec] {
        var boundaries: [Int: [MigrationHook]] = [:]
        for hook in source.hooks {
            let version: String
            let index: Int?
            switch hook.moment {
            case .after(let name):
                version = name
                index = path.firstIndex(of: name)
            case .before(let name):
                version = name
                index = path.firstIndex(of: name).map { $0 - 1 }
            }
            guard let index, index > 0, steps.contains(where: { $0.to == index }) else {
                warnings.append(
                    "the hook at \(version) does not run: the migration does not produce that version as a file")
                continue
            }
            boundaries[index, default: []].append(hook)
        }
        var passes: [PassSpec] = []
        var pending: [Step] = []
        func flush() {
            guard let first = pending.first, let last = pending.last else { return }
            var composed: InferredMapping?
            for step in pending {
                guard case .inferred(let mapping) = step.work else { continue }
                composed = composed.map { mapping.composed(after: $0) } ?? mapping
            }
            let sourceModel = (try? model(path[first.from])) ?? source.versions.versions[0].model
            let destinationModel = (try? model(path[last.to])) ?? sourceModel
            let work = composed.map(PassSpec.Work.inferred) ?? first.work
            passes.append(
                PassSpec(
                    work: work, versions: Array(path[first.from...last.to]), sourceModel: sourceModel,
                    destinationModel: destinationModel, steps: pending.map(\.plan), hooks: boundaries[last.to] ?? []))
            pending = []
        }
        for step in steps {
            if case .mapping = step.work {
                flush()
                pending = [step]
                flush()
            } else {
                pending.append(step)
                if boundaries[step.to] != nil { flush() }
            }
        }
        flush()
        return passes
    }

    /// Warnings for mapping models that name versions the model does not have.
    private func mappingWarnings() -> [String] {
        source.mappings.indices.compactMap { index in
            let mapping = source.mappings[index]
            let unknown = [mapping.source.versionName, mapping.destination.versionName].filter {
                !source.versions.names.contains($0)
            }
            guard !unknown.isEmpty else { return nil }
            return "the mapping model \(source.mappingName(index)) names versions the model does not have ("
                + unknown.joined(separator: ", ") + "): not used"
        }
    }
}

extension MigrationError.Kind {
    /// The lines of an inference error (the changes it cannot infer, or the ambiguities).
    var lines: [String] {
        switch self {
        case .notInferable(let lines), .ambiguousRename(let lines): lines
        default: []
        }
    }
}
