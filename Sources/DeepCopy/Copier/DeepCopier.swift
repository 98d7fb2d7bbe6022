// Deep copy between stores (DESIGN §6): objects first, page by page in key order, matched in
// the target by key (or copied once each through an identity map), then relationships through
// the map — to-one, to-many, many-to-many and ordered (order kept; merging appends missing
// members in source order) — self references and cycles included.
// Invariants: the source is only read; the whole copy is one run of the target's run journal,
// so a failure leaves the target as it was; memory holds one page plus the identity map.
import Foundation
import GraphStore

/// Copies object graphs from one store into another.
///
/// ```swift
/// var options = DeepCopyOptions()
/// options.onConflict = .keep
/// let report = try DeepCopier(from: seed, to: userStore, options: options).run()
/// print(report.summary)
/// ```
public final class DeepCopier {
    private let source: PersistentStore
    private let target: PersistentStore
    private let options: DeepCopyOptions
    private var report = CopyReport()
    /// Source root table → source key → target row (entity store ID, key).
    private var identity: [String: [Int64: (entityID: Int64, key: Int64)]] = [:]

    /// A copier from `source` (read) into `target` (written).
    public init(from source: PersistentStore, to target: PersistentStore, options: DeepCopyOptions = DeepCopyOptions())
    {
        self.source = source
        self.target = target
        self.options = options
    }

    /// Runs the copy.
    ///
    /// - Throws: ``DeepCopyError`` for incompatible models or a `fail` conflict, or store errors;
    ///   the target is then unchanged.
    public func run() throws -> CopyReport {
        let started = Date()
        let plan = try CopyPlan(source: source.model, target: target.model, options: options)
        report.warnings = plan.warnings
        let sourceContext = try ObjectContext(store: source)
        let targetContext = try ObjectContext(store: target)
        let run = try targetContext.beginRun(id: "copy-" + UUID().uuidString)
        do {
            for root in plan.roots { try copyObjects(of: root, plan: plan, from: sourceContext, to: targetContext) }
            for root in plan.roots {
                try copyRelationships(of: root, plan: plan, from: sourceContext, to: targetContext)
            }
            try targetContext.finishRun(run, metadata: options.completionMetadata)
        } catch {
            try? targetContext.undoRun(run)
            throw error
        }
        report.seconds = Date().timeIntervalSince(started)
        return report
    }

    // MARK: - Objects

    private func copyObjects(
        of root: Entity, plan: CopyPlan, from sourceContext: ObjectContext, to targetContext: ObjectContext
    ) throws {
        var last: Int64 = 0
        while case let page = try sourceContext.fetchPage(of: root.name, after: last, limit: options.batchSize),
            let final = page.last
        {
            let selected = try page.filter { try plan.copies($0.entity) && plan.admits($0) }
            let copied = Set(selected.map(ObjectIdentifier.init))
            for object in page where plan.isSelected(object.entity) && !copied.contains(ObjectIdentifier(object)) {
                report.entities[object.entity.name, default: CopyCounts()].skipped += 1
            }
            let matches = try findMatches(selected, plan: plan, in: targetContext)
            var created: [(Int64, ManagedObject)] = []
            for object in selected {
                let copy: ManagedObject
                if let match = matches[ObjectIdentifier(object)] {
                    report.entities[object.entity.name, default: CopyCounts()].matched += 1
                    if options.onConflict == .fail {
                        throw DeepCopyError(
                            "\(object.entity.name) \(try plan.keyDescription(of: object)) already exists in the target (onConflict: fail)"
                        )
                    }
                    if options.onConflict == .update { try copyAttributes(from: object, to: match, plan: plan) }
                    report.entities[object.entity.name, default: CopyCounts()][
                        keyPath: match.hasChanges ? \CopyCounts.updated : \CopyCounts.unchanged] += 1
                    copy = match
                } else {
                    copy = try targetContext.insert(object.entity.name)
                    try copyAttributes(from: object, to: copy, plan: plan)
                    report.entities[object.entity.name, default: CopyCounts()].copied += 1
                }
                created.append((object.objectID.key, copy))
            }
            try targetContext.save()
            options.progress?(report)
            for (key, copy) in created {
                identity[root.tableName, default: [:]][key] = (copy.objectID.entityID, copy.objectID.key)
            }
            last = final.objectID.key
            sourceContext.reset()
            targetContext.reset()
        }
    }

    /// Target objects matching the page's objects by key, one query per entity and chunk.
    private func findMatches(_ objects: [ManagedObject], plan: CopyPlan, in context: ObjectContext) throws
        -> [ObjectIdentifier: ManagedObject]
    {
        var matches: [ObjectIdentifier: ManagedObject] = [:]
        for (entityName, group) in Dictionary(grouping: objects, by: { $0.entity.name }).sorted(by: { $0.key < $1.key })
        {
            guard let key = plan.key(of: entityName) else { continue }
            var wanted: [[AttributeValue?]: ManagedObject] = [:]
            for object in group { wanted[try key.map { try object[$0] }] = object }
            var predicate: FetchPredicate?
            for (position, name) in key.enumerated() {
                let condition = FetchPredicate.key(name).in(Set(wanted.keys.compactMap { $0[position] }))
                predicate = predicate.map { $0 && condition } ?? condition
            }
            var request = FetchRequest(entityName: plan.lookupEntityName(of: entityName), predicate: predicate)
            request.includesPendingChanges = false
            for candidate in try context.fetch(request) {
                if let original = wanted[try key.map { try candidate[$0] }] {
                    matches[ObjectIdentifier(original)] = candidate
                }
            }
        }
        return matches
    }

    private func copyAttributes(from object: ManagedObject, to copy: ManagedObject, plan: CopyPlan) throws {
        for name in plan.attributes(of: object.entity.name) {
            try copy.setValue(try object[name], forKey: name)
        }
    }

    // MARK: - Relationships

    private func copyRelationships(
        of root: Entity, plan: CopyPlan, from sourceContext: ObjectContext, to targetContext: ObjectContext
    ) throws {
        var last: Int64 = 0
        while case let page = try sourceContext.fetchPage(of: root.name, after: last, limit: options.batchSize),
            let final = page.last
        {
            let selected = page.filter { plan.copies($0.entity) }
            // Objects left out by a predicate have no copy: targetObject(for:) gives nil for them.
            let owners = try selected.map { try targetObject(for: $0, in: targetContext) }
            try targetContext.load(owners.compactMap { $0 })
            for relationship in plan.relationshipNames(of: root) {
                let pairs = zip(selected, owners).filter {
                    $0.0.entity.relationship(named: relationship).map { plan.follows($0) } ?? false
                }
                guard let sample = pairs.first?.0.entity.relationship(named: relationship) else { continue }
                if sample.isToMany {
                    try sourceContext.prefetch(relationship, of: pairs.map(\.0))
                    try targetContext.prefetch(relationship, of: pairs.compactMap(\.1))
                }
                for (object, owner) in pairs {
                    guard let owner else { continue }
                    try link(object, relationship, to: owner, in: targetContext)
                }
            }
            try targetContext.save()
            options.progress?(report)
            last = final.objectID.key
            sourceContext.reset()
            targetContext.reset()
        }
    }

    private func link(_ object: ManagedObject, _ name: String, to owner: ManagedObject, in context: ObjectContext)
        throws
    {
        guard let relationship = object.entity.relationship(named: name) else { return }
        if relationship.isToMany {
            for member in try object.relatedObjects(at: relationship.index) {
                if let copy = try targetObject(for: member, in: context) { try owner.add(copy, to: name) }
            }
        } else if let destination = try object.related(at: relationship.index) {
            if let copy = try targetObject(for: destination, in: context) { try owner.setRelated(name, to: copy) }
        }
    }

    /// The target object a source object was copied to (nil when it was not copied).
    private func targetObject(for object: ManagedObject, in context: ObjectContext) throws -> ManagedObject? {
        let table = source.model.root(of: object.entity).tableName
        guard let row = identity[table]?[object.objectID.key] else { return nil }
        return try context.object(with: ObjectID(storeUUID: target.identifier, entityID: row.entityID, key: row.key))
    }
}

/// A copy that cannot run; nothing was written.
public struct DeepCopyError: Error, Sendable, CustomStringConvertible {
    /// Why.
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
