// Deep copy between stores (docs/Architecture.md "Deep copy") as set-based SQL: the source is attached read-only to the
// target context's connection; the rows to copy are admitted (predicates, then relationships that
// bring their destinations along, closed over the graph); each root table gets an identity map
// (matches by key, fresh keys for the rest) before anything is written; then rows are inserted
// and matched rows updated with INSERT … SELECT / UPDATE … FROM, to-one links remapped through
// the maps (self references and cycles included), join tables filled through the maps of both
// ends, and ordered members positioned (order kept; merging appends missing members in source
// order).
// A run left active in the target by a job that was killed (a copy, an import, a merge) is
// undone before the copy begins its own, so a re-run after a kill ends with exactly the right
// contents rather than the killed run's batches plus a whole copy.
// Invariants: the source is only read; the whole copy is one run of the target's run journal,
// so a failure leaves the target as it was, and the completion metadata commits with the run's
// end; memory holds one page of rows plus SQLite's caches (the maps are TEMP tables).
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

    /// A copier from `source` (read) into `target` (written).
    public init(from source: PersistentStore, to target: PersistentStore, options: DeepCopyOptions = DeepCopyOptions())
    {
        self.source = source
        self.target = target
        self.options = options
    }

    /// Runs the copy. A run left unfinished in the target (by a job that was killed) is undone
    /// first, with a warning in the report.
    ///
    /// - Throws: ``DeepCopyError`` for incompatible models or a `fail` conflict, or store errors;
    ///   the target is then unchanged (but for the undone leftover run).
    public func run() throws -> CopyReport {
        let started = Date()
        let plan = try CopyPlan(source: source.model, target: target.model, options: options)
        let context = try ObjectContext(store: target)
        let batches = CopyBatches(
            context: context, rowsPerBatch: options.batchSize, progress: options.progress,
            batchProgress: options.batchProgress)
        batches.report.warnings = plan.warnings
        if let leftover = try context.activeRun() {
            try context.undoRun(leftover)
            batches.report.warnings.append(
                "undid the unfinished run \(leftover.id) left in the target (a copy or import that was killed)")
        }
        let attachment = SourceAttachment(source: source, batches: batches)
        let run = try context.beginRun(id: "copy-" + UUID().uuidString)
        do {
            try attachment.attach()
            defer { try? attachment.detach() }
            try batches.useBulkSettings()
            defer { try? batches.restoreSettings() }
            try copy(plan: plan, with: batches)
            try batches.finish(run, metadata: options.completionMetadata)
        } catch {
            try? context.undoRun(run)
            throw error
        }
        var report = batches.report
        report.seconds = Date().timeIntervalSince(started)
        return report
    }

    private func copy(plan: CopyPlan, with batches: CopyBatches) throws {
        let tables = plan.roots.map { RootTable(root: $0, plan: plan) }
        let links = CopyLinks(plan: plan)
        if tables.contains(where: { $0.admissions != nil }) {
            let context = try ObjectContext(store: source)
            let admitted = AdmittedRows(plan: plan, pageSize: min(options.batchSize, 5000))
            for table in tables { try admitted.collect(table, from: context, batches: batches) }
            try BroughtAlongRows(plan: plan, tables: tables).close(with: batches)
        }
        var maps: [String: IdentityMap] = [:]
        try batches.scratch { connection in
            let builder = IdentityMapBuilder(plan: plan, onConflict: options.onConflict)
            for table in tables {
                try countSkipped(table, plan: plan, on: connection, batches: batches)
                guard !table.copied.isEmpty else { continue }
                maps[table.name] = try builder.build(table, on: connection, batches: batches)
            }
        }
        // Same model, everything asked for, no link cut, every table empty in the target: rows
        // move as they are.
        let verbatim =
            options.entities == nil && options.predicates.isEmpty && !plan.relationshipChoices.cutsAnything
            && source.model.versionHash == target.model.versionHash
            && tables.allSatisfy { maps[$0.name]?.isIdentity ?? false }
        var totals: CopyRowTotals?
        if batches.tracker.isListening {
            try batches.scratch { connection in
                totals = try CopyRowTotals(tables: tables, maps: maps, links: links, on: connection)
            }
            batches.tracker.expect(totalRows: totals?.all ?? 0)
        }
        if !verbatim {
            try batches.scratch { connection in
                for link in links.orderedMembers {
                    try OrderedMemberPositions(link: link, maps: maps).noteMovedMembers(on: connection)
                }
            }
        }
        for table in tables {
            batches.tracker.begin(.objects, entity: table.root.name, rows: totals?.tables[table.name] ?? 0)
            try RowCopier(
                table: table, plan: plan, maps: maps, links: links.foreignKeys(on: table.name),
                onConflict: options.onConflict, verbatim: verbatim
            ).copy(with: batches)
        }
        for link in links.joinTables {
            batches.tracker.begin(
                .links, entity: link.entity, relationship: link.relationship, rows: totals?.joinTables[link.table] ?? 0)
            try JoinTableCopier(link: link, maps: maps, verbatim: verbatim).copy(with: batches)
        }
        for link in links.orderedMembers where !verbatim {
            batches.tracker.begin(.links, entity: link.entity, relationship: link.relationship, rows: 0)
            try OrderedMemberPositions(link: link, maps: maps).assignPositions(with: batches)
        }
    }

    /// Counts the source objects asked for but not copied (entity missing in the target, or
    /// left out by a predicate).
    private func countSkipped(_ table: RootTable, plan: CopyPlan, on connection: SQLiteConnection, batches: CopyBatches)
        throws
    {
        let asked = table.root.kindStoreIDs.filter { plan.sourceEntity(storeID: $0).map(plan.isSelected) ?? false }
        let skipped = try connection.counts(
            """
            SELECT s.ent, count(*) FROM \(table.source) AS s
            WHERE s.ent IN (\(RootTable.list(asked))) AND NOT (\(table.copiedCondition("s"))) GROUP BY s.ent
            """)
        for (entityID, count) in skipped {
            if let entity = plan.sourceEntity(storeID: entityID) { batches.count(count, \.skipped, of: entity) }
        }
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
