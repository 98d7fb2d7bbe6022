// Keeps a migration's progress and hands each update to the caller's callback and stream: rows
// read over every pass, where the total of a pass that has not started yet is estimated from the
// rows of the store (and made exact when the pass counts its own at its start).
// Invariants: `completed` never decreases and never passes `total`; the finished update has
// `completed == total`; only the migration's thread calls it.
import Foundation

/// A migration's progress, as it is reported.
final class ProgressTracker {
    private var state: MigrationProgress
    /// Each pass's total: exact once the pass started, estimated before.
    private var passTotals: [Int]
    private let started = Date()
    private let emit: (MigrationProgress) -> Void

    init(passes: [(from: String, to: String)], estimate: Int, emit: @escaping (MigrationProgress) -> Void) {
        passTotals = Array(repeating: estimate, count: passes.count)
        self.emit = emit
        state = MigrationProgress(
            phase: .preparing, completed: 0, total: estimate * passes.count, step: 0, stepCount: passes.count,
            from: passes.first?.from ?? "", to: passes.last?.to ?? "", indexesBuilt: 0, indexCount: 0, seconds: 0)
        self.passes = passes
    }

    private let passes: [(from: String, to: String)]

    /// The pass `step` (1-based) starts, reading `rows` source rows.
    func beginPass(_ step: Int, rows: Int) {
        passTotals[step - 1] = rows
        state.step = step
        state.from = passes[step - 1].from
        state.to = passes[step - 1].to
        state.indexesBuilt = 0
        state.indexCount = 0
        state.total = max(passTotals.reduce(0, +), state.completed)
        report(.migrating)
    }

    /// `rows` more source rows were read.
    func advance(by rows: Int) {
        state.completed = min(state.completed + max(rows, 0), state.total)
        report(.migrating)
    }

    /// The pass starts building `count` indexes.
    func beginIndexing(_ count: Int) {
        state.indexCount = count
        report(.indexing)
    }

    /// One more index was built.
    func indexBuilt() {
        state.indexesBuilt += 1
        report(.indexing)
    }

    /// A new phase without new rows (`preparing`, `checking`, `installing`).
    func enter(_ phase: MigrationProgress.Phase) {
        report(phase)
    }

    /// The migration is done: every row counted.
    func finish() {
        state.total = max(state.completed, passTotals.prefix(state.step).reduce(0, +))
        state.completed = state.total
        report(.finished)
    }

    /// The pass's rows are all read (a pass may read fewer rows than counted when a policy skips some).
    func completePass() {
        let done = passTotals.prefix(state.step).reduce(0, +)
        if state.completed < done {
            state.completed = done
            report(state.phase)
        }
    }

    private func report(_ phase: MigrationProgress.Phase) {
        state.phase = phase
        state.seconds = Date().timeIntervalSince(started)
        emit(state)
    }
}
