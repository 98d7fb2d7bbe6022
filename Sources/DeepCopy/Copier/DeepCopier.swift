// Deep copy between stores (docs/Architecture.md "Deep copy") as set-based SQL: the source is attached read-only to the
// target context's connection; the rows to copy are admitted (predicates, then relationships that
// bring their destinations along, closed over the graph); each root table gets an identity map
// (matches by key, fresh keys for the rest) before anything is written; then rows are inserted
// and matched rows updated with INSERT … SELECT / UPDATE … FROM, to-one links remapped through
// the maps (self references and cycles included), join tables filled through the maps of both
// ends, and ordered members positioned (order kept; a merge appends missing members in source
// order, and under `update` then gives matched objects' lists the source's order, their
// target-only members after it).
// With a lineage (CopyLineage, LineageMatches), the target's seed record matches objects first,
// decides per column whether a matched object keeps the target's value, leaves out objects the
// target deleted, and is rewritten in the copy's last transaction.
// The two stores may have different layouts: each side's SQL names come from its own layout, and
// values are converted in SQL where the layouts encode them differently.
// A run left active in the target by a job that was killed (a copy, an import, a merge) is
// undone before the copy begins its own, so a re-run after a kill ends with exactly the right
// contents rather than the killed run's batches plus a whole copy.
// Cancellation: before every batch the copy checks whether its task was cancelled (the calling
// task, or the task awaiting the thread it runs on: BlockingWork); it then stops and undoes its
// run, like any failure.
// A damaged page met during the copy is blamed on the store it lies in (the source, when it fails
// an integrity check), though SQLite reports it on the target's connection.
// Invariants: the source is only read; the whole copy is one run of the target's run journal,
// so a failure or a cancellation leaves the target as it was, and the completion metadata
// commits with the run's end; memory holds one page of rows plus SQLite's caches (the maps are
// TEMP tables).
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
    /// Cancelling the task that runs the copy (or that awaits the thread running it) stops it
    /// before its next batch: everything it wrote is undone and `CancellationError` is thrown.
    ///
    /// - Throws: ``DeepCopyError`` for incompatible models or a `fail` conflict, `CancellationError`,
    ///   or store errors; the target is then unchanged (but for the undone leftover run).
    public func run() throws -> CopyReport {
        let started = Date()
        let plan = try CopyPlan(source: source.layout, target: target.layout, options: options)
        try BlockingWork.checkCancellation()
        let context = try ObjectContext(store: target)
        let batches = CopyBatches(
            context: context, rowsPerBatch: options.batchSize, progress: options.progress,
            batchProgress: options.batchProgress)
        batches.report.warnings = plan.warnings
        if let leftover = try context.undoLeftoverRun() {
            batches.report.warnings.append(
                "undid the unfinished run \(leftover.id) left in the target (a copy or import that was killed)")
        }
        let attachment = SourceAttachment(source: source, batches: batches, targetLayout: target.layout)
        let lineage = options.lineage.map { LineageMatches(lineage: $0, plan: plan) }
        let run = try context.beginRun(id: "copy-" + UUID().uuidString)
        do {
            try attachment.attach()
            defer { try? attachment.detach() }
            try batches.useBulkSettings()
            defer { try? batches.restoreSettings() }
            let links = CopyLinks(plan: plan)
            let (tables, maps) = try copy(plan: plan, links: links, lineage: lineage, with: batches)
            try batches.finish(run, metadata: options.completionMetadata) { connection in
                for root in tables.compactMap(\.targetRoot) {
                    try target.layout.coverKeys(ofRoot: root, on: connection)
                }
                try lineage?.record(tables, maps: maps, links: links, on: connection)
            }
        } catch {
            try? context.undoRun(run)
            throw blamingTheDamagedStore(error)
        }
        var report = batches.report
        report.seconds = Date().timeIntervalSince(started)
        return report
    }

    /// `error`, or — when it is a damaged page met while the source was attached, which SQLite
    /// reports on the target's connection, so that it names the target — the source's own error
    /// when the source fails an integrity check (the target's pages are then not to blame).
    private func blamingTheDamagedStore(_ error: any Error) -> any Error {
        guard let damage = error as? StoreError, case .damaged = damage.kind,
            damage.path == target.location.description, case .file(let path) = source.location
        else { return error }
        var verifying = StoreOptions()
        verifying.readOnly = true
        verifying.verifyIntegrity = true
        do {
            _ = try PersistentStore.open(at: path, options: verifying)
        } catch let sourceDamage as StoreError {
            return sourceDamage
        } catch {}
        return error
    }

    /// The tables a copy wrote, and their identity maps by source root index.
    private typealias CopiedTables = (tables: [RootTable], maps: [Int: IdentityMap])

    /// Copies every table and link; returns the tables and their identity maps.
    private func copy(plan: CopyPlan, links: CopyLinks, lineage: LineageMatches?, with batches: CopyBatches) throws
        -> CopiedTables
    {
        let tables = plan.roots.map { RootTable(root: $0, plan: plan) }
        if tables.contains(where: { $0.admissions != nil }) {
            let context = try ObjectContext(store: source)
            let admitted = AdmittedRows(plan: plan, pageSize: min(options.batchSize, 5000))
            for table in tables { try admitted.collect(table, from: context, batches: batches) }
            try BroughtAlongRows(plan: plan, tables: tables).close(with: batches)
        }
        var maps: [Int: IdentityMap] = [:]
        try batches.scratch { connection in
            try lineage?.prepare(on: connection)
            let builder = IdentityMapBuilder(plan: plan, onConflict: options.onConflict, lineage: lineage)
            for table in tables {
                try lineage?.match(table, on: connection, batches: batches)
                try countSkipped(table, plan: plan, on: connection, batches: batches)
                guard !table.copied.isEmpty else { continue }
                maps[table.root.index] = try builder.build(table, on: connection, batches: batches)
            }
        }
        // Same model and layout, everything asked for, no link cut, every table empty in the
        // target: rows move as they are.
        let verbatim =
            plan.copiesEverythingAsLaidOut && tables.allSatisfy { maps[$0.root.index]?.isIdentity ?? false }
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
                    try OrderedMemberPositions(link: link, plan: plan, maps: maps).noteMovedMembers(on: connection)
                }
            }
        }
        for table in tables {
            batches.tracker.begin(.objects, entity: table.root.name, rows: totals?.tables[table.root.index] ?? 0)
            try RowCopier(
                table: table, plan: plan, maps: maps, links: links.foreignKeys(on: table.root.index),
                onConflict: options.onConflict, lineage: lineage, verbatim: verbatim
            ).copy(with: batches)
        }
        for link in links.joinTables {
            batches.tracker.begin(
                .links, entity: link.entity, relationship: link.relationship,
                rows: totals?.joinTables[link.sourceTable] ?? 0)
            try JoinTableCopier(link: link, maps: maps, verbatim: verbatim).copy(with: batches)
        }
        for link in links.orderedMembers where !verbatim {
            batches.tracker.begin(.links, entity: link.entity, relationship: link.relationship, rows: 0)
            try OrderedMemberPositions(link: link, plan: plan, maps: maps).assignPositions(with: batches)
        }
        if options.onConflict == .update {
            for merge in SourceOrderMerge.all(links: links, plan: plan, maps: maps) { try merge.apply(with: batches) }
        }
        return (tables, maps)
    }

    /// Counts the source objects asked for but not copied (entity missing in the target, or
    /// left out by a predicate).
    private func countSkipped(_ table: RootTable, plan: CopyPlan, on connection: SQLiteConnection, batches: CopyBatches)
        throws
    {
        let layout = plan.sourceLayout
        let asked = layout.kindNumbers(of: table.root).filter {
            plan.sourceEntity(number: $0).map(plan.isSelected) ?? false
        }
        let entity = layout.entityColumn
        let skipped = try connection.counts(
            """
            SELECT s.\(entity), count(*) FROM \(table.source) AS s
            WHERE s.\(entity) IN (\(StoreLayout.list(asked))) AND NOT (\(table.copiedCondition("s"))) GROUP BY s.\(entity)
            """)
        for (number, count) in skipped {
            if let entity = plan.sourceEntity(number: number) { batches.count(count, \.skipped, of: entity) }
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
