// The entry point of migrations: plan (read only) and migrate a store in place or into a new
// file, on a thread of its own (never the caller's actor: a launch-time migration must not block
// the main thread), under the lock on the store's directory that first launches take too, with
// progress as a stream and a callback. Cancelling the task that awaits a migration stops it
// between batches; its files are removed and the store is as it was.
import Foundation
import GraphStore

/// Migrates a store from its model version to another.
///
/// ```swift
/// let source = MigrationSource(versions: try ModelVersionSet.load(from: "Model.xcdatamodeld"))
/// let plan = try StoreMigrator.plan(store: "App.sqlite", source: source)
/// if !plan.isUpToDate {
///     let report = try await StoreMigrator.migrate(store: "App.sqlite", source: source)
///     print(report.summary)
/// }
/// ```
public final class StoreMigrator: Sendable {
    /// The store migrated.
    public let store: String
    /// The versions, mapping models, policies and hooks.
    public let source: MigrationSource
    /// How the migration runs.
    public let options: MigrationOptions
    /// Every progress update of ``run()`` (also given to ``MigrationOptions/onProgress``); it
    /// ends when the migration ends.
    public let progress: AsyncStream<MigrationProgress>
    private let continuation: AsyncStream<MigrationProgress>.Continuation

    /// A migration of the store at `store`.
    public init(store: String, source: MigrationSource, options: MigrationOptions = MigrationOptions()) {
        self.store = store
        self.source = source
        self.options = options
        (progress, continuation) = AsyncStream.makeStream(
            of: MigrationProgress.self, bufferingPolicy: .bufferingNewest(256))
    }

    /// What migrating would do, worked out without writing anything: the versions, the passes and
    /// their changes, and the data the first pass drops.
    ///
    /// - Throws: ``MigrationError`` for every refusal (no path, a store newer than the target,
    ///   an unsupported expression, an unregistered policy, …).
    public func plan() throws -> MigrationPlan {
        try makeRun(writing: store).plan().plan
    }

    /// Migrates the store in place.
    ///
    /// - Throws: ``MigrationError`` or `CancellationError`; the store is then as it was.
    public func run() async throws -> MigrationReport {
        try await run(writing: store)
    }

    /// Migrates the store into a new file at `output`, leaving the store as it is.
    ///
    /// - Throws: ``MigrationError`` (also when `output` exists) or `CancellationError`; no file
    ///   is left at `output` then.
    public func run(into output: String) async throws -> MigrationReport {
        guard output != store else { return try await run() }
        guard !FileManager.default.fileExists(atPath: output) else {
            continuation.finish()
            throw MigrationError(.fileSystem("\(output) already exists"), store: store)
        }
        return try await run(writing: output)
    }

    /// What migrating `store` would do (see ``plan()``).
    public static func plan(store: String, source: MigrationSource, options: MigrationOptions = MigrationOptions())
        throws -> MigrationPlan
    {
        try StoreMigrator(store: store, source: source, options: options).plan()
    }

    /// Migrates the store at `store` in place (see ``run()``).
    @discardableResult
    public static func migrate(
        store: String, source: MigrationSource, options: MigrationOptions = MigrationOptions()
    ) async throws -> MigrationReport {
        try await StoreMigrator(store: store, source: source, options: options).run()
    }

    /// Migrates the store at `store` into a new file at `output` (see ``run(into:)``).
    @discardableResult
    public static func migrate(
        store: String, to output: String, source: MigrationSource, options: MigrationOptions = MigrationOptions()
    ) async throws -> MigrationReport {
        try await StoreMigrator(store: store, source: source, options: options).run(into: output)
    }

    // MARK: - Running

    private func makeRun(writing output: String) -> MigrationRun {
        let continuation = self.continuation
        let callback = options.onProgress
        return MigrationRun(
            files: MigrationFiles(store: store, result: output), source: source, options: options,
            emit: { progress in
                callback?(progress)
                continuation.yield(progress)
            })
    }

    /// Migrates the store in place for a caller that already holds the lock on the store's
    /// directory (`DirectoryLock`): `SeedLoader`, which migrates and then merges under one lock.
    package func runHoldingDirectoryLock() async throws -> MigrationReport {
        defer { continuation.finish() }
        let run = makeRun(writing: store)
        return try await BlockingWork.run(name: "seedkit.migrate") { _ in try run.run() }
    }

    private func run(writing output: String) async throws -> MigrationReport {
        defer { continuation.finish() }
        let run = makeRun(writing: output)
        let directory = run.files.directory
        do {
            return try await DirectoryLock.withLock(on: directory) {
                try await BlockingWork.run(name: "seedkit.migrate") { _ in try run.run() }
            }
        } catch let error as StoreError {
            throw MigrationError(.fileSystem(error.description), store: store)
        }
    }
}
