// Progress of a first launch, delivered by SeedLoader as an AsyncSequence and to an optional
// synchronous callback.

extension SeedLoader {
    /// Where a running ``SeedLoader/prepare()`` is.
    ///
    /// ```swift
    /// for await step in loader.progress {
    ///     print(step.phase, step.completed, step.total ?? 0)   // merging 4000 10020
    /// }
    /// ```
    public struct Progress: Sendable, Hashable {
        /// What the loader is doing.
        public enum Phase: String, Sendable, Hashable {
            /// Migrating the user's store to the app's model version (`completed`/`total` in
            /// source rows over every pass of the migration).
            case migrating
            /// Copying the seed file into place (`completed`/`total` in bytes).
            case copying
            /// Deep-copying the seed into the user's store: `completed` counts the seed's objects
            /// handled so far (copied, matched or skipped) of `total`; batches that write
            /// relationships leave it as it is.
            case merging
            /// Importing bundled sources through a plan (`completed` in records; no total).
            case importing
            /// Done: the store is in place and carries the seed's version.
            case finished
        }

        /// The phase.
        public var phase: Phase
        /// Work done so far in this phase, in the phase's unit.
        public var completed: Int
        /// The phase's total work, when known.
        public var total: Int?
        /// The number of this update within its phase, from 1: the chunk copied or the batch
        /// saved (each batch is one committed transaction).
        public var step: Int

        /// An update.
        public init(phase: Phase, completed: Int, total: Int?, step: Int) {
            self.phase = phase
            self.completed = completed
            self.total = total
            self.step = step
        }

        /// The fraction of the phase done (0…1), when the total is known.
        public var fraction: Double? {
            guard let total, total > 0 else { return nil }
            return min(1, Double(completed) / Double(total))
        }
    }
}
