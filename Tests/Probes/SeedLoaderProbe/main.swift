// seedkit-loader-probe: runs SeedLoader.prepare() in a process of its own so tests can kill it
// (SIGKILL) at a named point of a first launch (Tests/SeedKitTests/SeedLoaderKillTests.swift).
//
//   seedkit-loader-probe SEED STORE [--pause PHASE[:STEP] | --pause commit:N | --pause migration:POINT]
//                       [--batch-size N] [--versions FILE]
//
// SEED is a seed store, or a plan file (.yaml/.json). With --versions (a versioned model: an
// .xcdatamodeld or a SeedKit versions file), the loader migrates the store to its current
// version first (SeedLoaderOptions.migration). With --pause PHASE[:STEP], the probe stops
// on the loading thread at the first progress update of PHASE (copying, merging, importing,
// finished) whose step is STEP (default: any), prints `paused PHASE STEP` on standard output and
// sleeps until it is killed. A plan import runs on a thread of its own and reports its batches
// asynchronously, so to stop it at a batch use --pause commit:N: the thread committing the Nth
// transaction that changes object rows of STORE (or of its temporary copy) stops inside that
// commit (see CommitGate.swift), prints `paused commit N` and sleeps. With --pause
// migration:POINT, it stops at that stop point of the store's migration (`prepared`,
// `batch:PASS:N`, `built`: the new file complete, not yet installed; `renamed`: installed, the
// directory not yet synced), prints `paused migration POINT` and sleeps. Without --pause, it prints
// `outcome …` and `commits N` (the data commits made). Exit 1 with the error on standard error.
import Foundation
import SeedKit

/// The point to stop at: a phase and optionally a step (nil: the first update of the phase), the
/// Nth data commit (`commit:N`), or a stop point of the migration (`migration:POINT`).
struct PausePoint: Sendable {
    let phase: SeedLoader.Progress.Phase?
    let step: Int?
    /// The migration's stop point, by its name (`built`, `batch:1:2`).
    var migrationStop: String?

    init?(_ text: String) {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard let name = parts.first else { return nil }
        if name == "migration" {
            guard parts.count > 1 else { return nil }
            phase = nil
            step = nil
            migrationStop = parts[1]
            return
        }
        if name == "commit" {
            guard parts.count > 1, let value = Int(parts[1]), value > 0 else { return nil }
            phase = nil
            step = value
            return
        }
        guard let phase = SeedLoader.Progress.Phase(rawValue: name) else { return nil }
        self.phase = phase
        if parts.count > 1 {
            guard let value = Int(parts[1]) else { return nil }
            step = value
        } else {
            step = nil
        }
    }

    /// The data commit to hold, for `commit:N`.
    var commit: Int? { phase == nil ? step : nil }

    /// Whether the point is a progress update (not a commit nor a migration's stop point).
    var isProgress: Bool { phase != nil }

    func matches(_ update: SeedLoader.Progress) -> Bool {
        update.phase == phase && (step == nil || update.step == step)
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("seedkit-loader-probe: \(message)\n".utf8))
    exit(1)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var options = SeedLoaderOptions()
var pause: PausePoint?
while let flag = arguments.firstIndex(where: { $0.hasPrefix("--") }) {
    guard flag + 1 < arguments.count else { fail("\(arguments[flag]) needs a value") }
    let value = arguments.remove(at: flag + 1)
    switch arguments.remove(at: flag) {
    case "--pause":
        guard let point = PausePoint(value) else { fail("bad pause point \(value)") }
        pause = point
    case "--batch-size":
        guard let size = Int(value) else { fail("bad batch size \(value)") }
        options.batchSize = size
    case "--versions":
        do {
            options.migration = MigrationSource(versions: try ModelVersionSet.load(from: value))
        } catch {
            fail("\(value): \(error)")
        }
    case let other: fail("unknown option \(other)")
    }
}
guard arguments.count == 2 else {
    fail(
        "usage: seedkit-loader-probe SEED STORE [--pause PHASE[:STEP] | --pause commit:N | --pause migration:POINT]"
            + " [--batch-size N] [--versions FILE]")
}
CommitGate.install(store: arguments[1], stopAt: pause?.commit)
if let stop = pause?.migrationStop {
    options.onMigrationStopPoint = { point in
        guard point.name == stop else { return }
        FileHandle.standardOutput.write(Data("paused migration \(point.name)\n".utf8))
        while true { sleep(60) }
    }
}
if let pause, pause.isProgress {
    options.onProgress = { update in
        guard pause.matches(update) else { return }
        FileHandle.standardOutput.write(Data("paused \(update.phase.rawValue) \(update.step)\n".utf8))
        while true { sleep(60) }
    }
}
let seed: SeedSource =
    arguments[0].hasSuffix(".yaml") || arguments[0].hasSuffix(".json") ? .plan(arguments[0]) : .store(arguments[0])
do {
    let outcome = try await SeedLoader(seed: seed, store: arguments[1], options: options).prepare()
    print("outcome \(outcome)")
    print("commits \(CommitGate.commits)")
} catch {
    fail("\(error)")
}
