// The store an import writes: opened or created, its run journal begun (a leftover run undone
// first) or resumed, the bulk-write connection settings while the batches commit — and, when
// the run fails or is cancelled, the store put back as it was: the journal undoes the run in a
// store that existed, and a store the run created is removed with its side files.
// Invariants: every batch commits inside the journal's run (or, in a dry run, inside one
// transaction that is rolled back); `abandon` leaves the target exactly as it was before the run.
import Foundation
import GraphStore

/// The store of one import run.
final class ImportTarget {
    /// The store's path.
    let path: String
    /// Whether the store existed before the run (else the run created it).
    let existed: Bool
    /// Whether nothing is committed (the run's transaction is rolled back at its end).
    let isDryRun: Bool
    /// The store.
    let store: PersistentStore
    /// The context every batch is written with.
    let context: ObjectContext
    /// The highest key of each root table before the run began: rows above it are the run's own.
    private(set) var watermarks: [String: Int64] = [:]
    private var journal: RunJournal?
    /// What the run keeps in the store only while it is active.
    private let scratch: RunScratch

    /// Opens the store at `path` for `model`, creating it when missing — in the plan's layout,
    /// Core Data's when `plan` says `layout: core-data` or names a `template:` store; `scratch` is
    /// what the run keeps in the store while it is active, removed should the run be undone.
    ///
    /// - Throws: ``ImportFailure`` when a new Core Data–layout store is asked for with a model that
    ///   is not an Xcode model; store errors.
    init(path: String, model: ObjectModel, plan: ImportPlan, options: ImportOptions, scratch: RunScratch) throws {
        self.path = path
        self.scratch = scratch
        existed = FileManager.default.fileExists(atPath: path)
        isDryRun = options.dryRun
        var storeOptions = StoreOptions()
        storeOptions.deferIndexes = !existed && options.deferIndexesOnNewStore && !options.dryRun
        storeOptions.storeUUID = options.newStoreUUID
        storeOptions.writeAheadLog = !(options.newStoreWithoutWAL && !existed)
        if !existed {
            let template = plan.template.map(plan.resolve)
            if plan.layout == .coreData || template != nil {
                try Self.requireXcodeModel(plan)
                storeOptions.layout = .coreData
                storeOptions.template = template
            }
        }
        do {
            store = try PersistentStore.open(at: path, model: model, options: storeOptions)
            context = try ObjectContext(store: store)
        } catch {
            if !existed { try? StoreFiles.remove(path) }
            throw error
        }
    }

    /// Runs `body` as the journal's run `runID` — resuming it when `resume` and the store holds
    /// that run left active by a kill (its checkpoint is passed to `body`), else undoing any run
    /// left active and starting anew — with the bulk-write settings, then ends the run with
    /// `finish`. A dry run runs `body` inside one transaction that is rolled back.
    func run(
        id runID: String, resume: Bool, _ body: (ImportCheckpoint?) throws -> Void,
        finish: (RunJournal) throws -> Void
    ) throws {
        if isDryRun {
            let layout = store.layout
            watermarks = try context.readRows {
                try ImportSQL.nextFreeKeys(on: $0, layout: layout).mapValues { $0 - 1 }
            }
            try context.withoutCommitting { try body(nil) }
            return
        }
        let (journal, checkpoint) = try startJournal(id: runID, resume: resume)
        self.journal = journal
        watermarks = journal.watermarks
        // Batches commit without waiting for the disk; the last transaction (the run's end)
        // at the store's own durability. A new store's rows are appended, so its page cache
        // stays small; a store that holds data is read by key, which a larger one helps.
        let saved = try context.useBulkWrites(BulkWriteSettings(pageCacheKiB: existed ? 64 * 1024 : 8 * 1024))
        do {
            try body(checkpoint)
            try context.restore(saved)
        } catch {
            try? context.restore(saved)
            throw error
        }
        try finish(journal)
        self.journal = nil
    }

    /// Ends the load of a store the run created: its rows are no longer appended, and the
    /// steps after the load (the index build, the set-based passes) sort, with SQLite sizing
    /// its sorts by the page cache — so the page cache goes down to 2 MiB (no change to a store
    /// that held data, which is read by key).
    func endLoad() throws {
        guard !existed, !isDryRun else { return }
        try context.readRows { try $0.execute("PRAGMA main.cache_size = -\(Self.afterLoadPageCacheKiB)") }
    }

    private static let afterLoadPageCacheKiB = 2 * 1024

    /// Refuses a plan whose model file is not an Xcode model (`.xcdatamodeld`, `.xcdatamodel`,
    /// or its `contents`): a Core Data–layout store is for a Core Data app, which loads one.
    private static func requireXcodeModel(_ plan: ImportPlan) throws {
        guard let file = plan.model else { return }
        let url = URL(fileURLWithPath: file)
        guard !["xcdatamodeld", "xcdatamodel"].contains(url.pathExtension.lowercased()),
            url.lastPathComponent != "contents"
        else { return }
        throw ImportFailure(
            report: ImportReport(),
            reason: "layout core-data writes a store for a Core Data app, which loads an Xcode model: "
                + "the plan's model \(file) is not one (.xcdatamodeld or .xcdatamodel)")
    }

    /// Puts the target back as it was before the run: a store the run created is removed with
    /// its side files; in a store that existed, the run is undone.
    func abandon() {
        if !existed && !isDryRun {
            try? StoreFiles.remove(path)
        } else if let journal {
            try? context.undoRun(journal)
            try? context.writeRows(metadata: scratch.removedMetadata, scratch.dropTables)
        }
        journal = nil
    }

    /// Whether a row of `table` with key `key` was written by this run.
    func isOwnRow(_ key: Int64, in table: String) -> Bool {
        key > watermarks[table, default: 0]
    }

    private func startJournal(id runID: String, resume: Bool) throws -> (RunJournal, ImportCheckpoint?) {
        if let active = try context.activeRun() {
            if resume, active.id == runID, let stored = ImportCheckpoint.stored(in: try store.metadata()),
                stored.run == runID
            {
                if try store.metadata()[StoreMetadata.Key.indexesPending] != nil { try store.createIndexes() }
                try context.resumeRun(active)
                return (active, stored)
            }
            try context.undoRun(active)
        }
        return (try context.beginRun(id: runID), nil)
    }
}

/// What a run keeps in the store only while it is active: metadata keys (its checkpoint) and
/// tables (its staging tables).
struct RunScratch {
    /// The metadata keys.
    let metadataKeys: [String]
    /// Drops the tables.
    let dropTables: (SQLiteConnection) throws -> Void

    /// The metadata that removes the keys.
    var removedMetadata: [String: String?] {
        Dictionary(uniqueKeysWithValues: metadataKeys.map { ($0, String?.none) })
    }
}
