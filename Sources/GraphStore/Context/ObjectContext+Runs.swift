// Runs: long jobs (imports, copies, first-launch merges) that save batch by batch through this
// context yet can be undone as a whole, resumed after a kill, or run dry (see RunJournal).
// Runs write the store, so a child context (whose saves go to its parent) takes part in none.

extension ObjectContext {
    /// The run left active in the store by a job that did not finish, if any.
    public func activeRun() throws -> RunJournal? {
        try PersistentStore.sqlite(store.location.description) {
            try RunJournal.active(layout: layout, on: connection, path: store.location.description)
        }
    }

    /// Starts a run: every batch saved from now on can be undone with ``undoRun(_:)``.
    public func beginRun(id: String) throws -> RunJournal {
        try requireStoreContext("begin a run")
        return try PersistentStore.sqlite(store.location.description) {
            try RunJournal.begin(id: id, layout: layout, on: connection)
        }
    }

    /// Continues a run left active (after a kill): its undo logging resumes on this context.
    public func resumeRun(_ run: RunJournal) throws {
        try requireStoreContext("resume a run")
        try PersistentStore.sqlite(store.location.description) {
            try run.installTriggers(layout: layout, on: connection)
        }
    }

    /// Saves the last changes of `run` and ends it in the same transaction: from then on the
    /// run's work is permanent.
    @discardableResult
    public func finishRun(_ run: RunJournal, metadata: [String: String?] = [:]) throws -> ChangeSet? {
        try save(metadata: metadata, finishing: run)
    }

    /// Undoes everything `run` saved and ends it; the context forgets its objects.
    public func undoRun(_ run: RunJournal) throws {
        try requireStoreContext("undo a run")
        reset()
        try PersistentStore.sqlite(store.location.description) {
            try run.undo(layout: layout, on: connection)
        }
    }

    /// Undoes the run a job that was killed (or failed half-way) left active in the store, if
    /// any, and returns it: long jobs call this before they begin their own run.
    @discardableResult
    public func undoLeftoverRun() throws -> RunJournal? {
        guard let leftover = try activeRun() else { return nil }
        try undoRun(leftover)
        return leftover
    }

    /// Runs `body` inside one transaction that is rolled back at the end: every save in it is a
    /// savepoint, so `body` sees its own writes but nothing reaches the store (dry runs).
    public func withoutCommitting<T>(_ body: () throws -> T) throws -> T {
        try requireStoreContext("hold a dry run's transaction")
        try PersistentStore.sqlite(store.location.description) {
            try connection.execute("BEGIN IMMEDIATE")
        }
        defer {
            try? connection.execute("ROLLBACK")
            reset()
        }
        return try body()
    }
}
