// Seed builds (docs/FirstLaunch.md): run a plan into a temporary file, validate the whole graph,
// write the seed's metadata (version, model hash, source checksums, generator) and its seed record
// (each object's identity and fingerprints, so a copy of it knows where its objects came from),
// build indexes, ANALYZE, VACUUM, switch to a single-file journal, and rename the result into
// place atomically.
// Cancellation: cancelling the building task stops the import between batches (the importer
// removes the file it was creating), or the finishing steps between pages and steps; the
// temporary file is then removed and the output is untouched.
// In Core Data's layout (the plan's `layout: core-data`, or the builder's) the result is the
// store a Core Data app opens without migration: the seed keys go into its metadata property
// list, and no table of SeedKit's or SQLite's statistics remains.
// Invariants: the same inputs give a byte-identical file (no timestamps or random UUIDs: the
// store UUID is derived from the inputs); the output path never holds a half-built file, and a
// build that fails or is cancelled leaves no temporary file (nor its side files) behind.
import Crypto
import Foundation
import GraphStore
import ModelFiles
import SeedImport

/// Builds a seed store from a plan.
///
/// ```swift
/// let result = try await SeedBuilder(planFile: "Seeds/plan.yaml").build(to: "Seed.sqlite")
/// print(result.report.summary, result.checksum)
/// ```
public struct SeedBuilder: Sendable {
    /// The version of SeedKit written into built stores as `seed.generator`.
    public static let generator = "seedkit 0.1.0"

    /// What a build produced.
    public struct Result: Sendable {
        /// The import's report.
        public var report: ImportReport
        /// The built store's path.
        public var path: String
        /// The SHA-256 of the built file (hex).
        public var checksum: String
    }

    private let planFile: String
    private let layout: StoreLayoutKind?
    private let template: String?

    /// A builder for the plan file at `path`; `layout` and `template` (an empty Core Data store
    /// the app made, absolute or relative to the plan's folder) override the plan's.
    ///
    /// ```swift
    /// let seed = try await SeedBuilder(planFile: "Seeds/plan.yaml", layout: .coreData).build(to: "Seed.sqlite")
    /// ```
    public init(planFile path: String, layout: StoreLayoutKind? = nil, template: String? = nil) {
        planFile = path
        self.layout = layout
        self.template = template
    }

    /// Builds the seed at `output` (default: the plan's `store:`), reporting the import's
    /// progress to `progress` (on the import's thread, in order).
    ///
    /// Cancelling the task stops the build between batches (or between the finishing steps) and
    /// throws `CancellationError`: nothing is written at `output` and no temporary file remains.
    /// A build whose result was already moved into place is complete and returns normally.
    ///
    /// - Throws: ``SeedBuildError``, `ImportFailure` or `PlanErrors` (from SeedImport), or
    ///   `CancellationError`; the output is untouched.
    public func build(
        to output: String? = nil, progress: @escaping @Sendable (ImportProgress) -> Void = { _ in }
    ) async throws -> Result {
        let file = try PlanFile.load(from: planFile)
        guard let target = output ?? file.plan.store.map(file.plan.resolve) else {
            throw SeedBuildError("no output: give -o or a store: in the plan")
        }
        let temporary = target + ".building"
        try? StoreFiles.remove(temporary)
        do {
            let checksums = try sourceChecksums(file.plan)
            let (imported, model) = try await importSources(
                file, into: temporary, uuid: try derivedUUID(plan: file.plan, checksums: checksums), progress: progress)
            var report = imported
            report.store = target
            let plan = file.plan
            try await BlockingWork.run(name: "seedkit.build") { _ in
                try finalize(temporary, plan: plan, model: model, checksums: checksums)
                try BlockingWork.checkCancellation()
                guard rename(temporary, target) == 0 else {
                    throw SeedBuildError(
                        "cannot move the built store to \(target): \(String(cString: strerror(errno)))")
                }
            }
            return Result(report: report, path: target, checksum: try Self.checksum(ofFile: target))
        } catch {
            try? StoreFiles.remove(temporary)
            throw error
        }
    }

    /// Runs the plan `file` (read once) into a new store at `path` with the store UUID `uuid`,
    /// forwarding progress; returns the report and the plan's model.
    private func importSources(
        _ file: PlanFile, into path: String, uuid: UUID, progress: @escaping @Sendable (ImportProgress) -> Void
    ) async throws -> (ImportReport, ObjectModel) {
        var options = ImportOptions()
        options.store = path
        options.newStoreUUID = uuid
        options.newStoreWithoutWAL = true
        let validated = try ValidatedPlan(
            file, model: try ValidatedPlan.model(for: file.plan, store: path), path: planFile)
        var plan = validated.plan
        plan.layout = layout ?? plan.layout
        plan.template = template ?? plan.template
        options.onProgress = progress
        let importer = Importer(plan: plan, model: validated.model, options: options, planFile: planFile)
        return (try await importer.run(), validated.model)
    }

    /// Validates every object, writes the seed metadata and record, and compacts the store into one file,
    /// stopping between pages and steps when the build is cancelled (on its BlockingWork thread).
    private func finalize(_ path: String, plan: ImportPlan, model: ObjectModel, checksums: [String: String]) throws {
        var single = StoreOptions()
        single.writeAheadLog = false
        let store = try PersistentStore.open(at: path, model: model, options: single)
        try validateGraph(store)
        try BlockingWork.checkCancellation()
        var metadata: [String: String?] = [
            "seed.sources": Self.json(checksums), "seed.generator": Self.generator,
        ]
        if let version = plan.seedVersion { metadata["seed.version"] = version }
        try store.setMetadata(metadata)
        // A layout that keeps no tables of SeedKit's (Core Data's) ships without a seed record:
        // its upgrades match objects by key.
        if store.layout.rules.keepsLibraryTables { try store.recordSeedObjects() }
        if try store.metadata()[StoreMetadata.Key.indexesPending] != nil { try store.createIndexes() }
        try BlockingWork.checkCancellation()
        try store.compactForShipping()
    }

    /// Checks every object of every entity against the model's rules, a page at a time (the
    /// build's cancellation is checked before each page).
    private func validateGraph(_ store: PersistentStore) throws {
        let context = try ObjectContext(store: store)
        var failures: [ValidationFailure] = []
        for entity in store.model.entities where entity.isRoot {
            var last: Int64 = 0
            while case let page = try context.fetchPage(of: entity.name, after: last, limit: 2000),
                let final = page.last
            {
                try BlockingWork.checkCancellation()
                failures += try context.validationFailures(of: page)
                last = final.objectID.key
                context.reset()
            }
        }
        if !failures.isEmpty { throw ObjectValidationError(failures: failures) }
    }

    /// SHA-256 of every source file, by its path as the plan names it.
    private func sourceChecksums(_ plan: ImportPlan) throws -> [String: String] {
        var checksums: [String: String] = [:]
        for source in plan.sources {
            checksums[source.file] = try Self.checksum(ofFile: plan.resolve(source.file))
        }
        return checksums
    }

    /// A UUID derived from the model, the plan and the sources' contents.
    private func derivedUUID(plan: ImportPlan, checksums: [String: String]) throws -> UUID {
        let text = Self.json(checksums) + "\n" + (try String(contentsOfFile: planFile, encoding: .utf8))
        var bytes = Array(SHA256.hash(data: Array(text.utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50  // version 5 style (name-based)
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    /// The hex SHA-256 of a file, read in 1 MiB chunks.
    static func checksum(ofFile path: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw SeedBuildError("cannot read \(path)") }
        defer { try? handle.close() }
        var hasher = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hasher.update(data: chunk)
        }
        return hasher.finalize().hex
    }

    private static func json(_ values: [String: String]) -> String {
        "{"
            + values.sorted { $0.key < $1.key }.map { JSONString.quoted($0.key) + ":" + JSONString.quoted($0.value) }
            .joined(separator: ",") + "}"
    }
}

/// A seed build that could not finish; the output was not touched.
public struct SeedBuildError: Error, Sendable, CustomStringConvertible {
    /// Why.
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
