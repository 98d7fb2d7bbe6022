// A new store in Core Data's layout for an import (a plan's `layout: core-data` or `template:`):
// made empty, with the run's store UUID and journal mode, before the run starts — the run then
// imports into it as into any existing store, through the store-layout contract — and removed
// again when the run fails or is a dry run, so that a failed import leaves no file, as it does
// for a new store in SeedKit's layout.
// Invariant: only a file this type created is ever removed; a plan naming a model file that is
// not an Xcode model is refused before any file is made (Core Data apps load Xcode models).
import Foundation
import GraphStore

/// The new Core Data–layout store an import creates before its run, if any.
struct NewStoreLayout {
    /// The store created for the run (nil: the run opens or creates the store itself).
    let created: String?

    /// Creates the store the plan's `layout:`/`template:` ask for, when it does not exist yet.
    ///
    /// - Throws: ``ImportFailure`` when the layout needs another model or the store cannot be made.
    init(plan: ImportPlan, model: ObjectModel, options: ImportOptions) throws {
        let template = plan.template.map(plan.resolve)
        guard plan.layout == .coreData || template != nil,
            let path = options.store ?? plan.store.map(plan.resolve), !FileManager.default.fileExists(atPath: path)
        else {
            created = nil
            return
        }
        if let file = plan.model, !Self.isXcodeModel(file) {
            throw ImportFailure(
                report: ImportReport(),
                reason:
                    "layout core-data writes a store for a Core Data app, which loads an Xcode model: "
                    + "the plan's model \(file) is not one (.xcdatamodeld or .xcdatamodel)")
        }
        var storeOptions = StoreOptions()
        storeOptions.layout = .coreData
        storeOptions.template = template
        storeOptions.storeUUID = options.newStoreUUID
        storeOptions.writeAheadLog = !options.newStoreWithoutWAL
        do {
            _ = try PersistentStore.open(at: path, model: model, options: storeOptions)
        } catch {
            throw ImportFailure(report: ImportReport(), reason: "\(error)")
        }
        created = path
    }

    /// After the run: removes the created store when the run failed (`succeeded` false) or only
    /// checked (`dryRun`).
    func finish(succeeded: Bool, dryRun: Bool) {
        guard let created, !succeeded || dryRun else { return }
        try? StoreFiles.remove(created)
    }

    /// Whether `path` names an Xcode model (`.xcdatamodeld`, `.xcdatamodel`, or its `contents`).
    private static func isXcodeModel(_ path: String) -> Bool {
        let url = URL(fileURLWithPath: path)
        return ["xcdatamodeld", "xcdatamodel"].contains(url.pathExtension.lowercased())
            || url.lastPathComponent == "contents"
    }
}
