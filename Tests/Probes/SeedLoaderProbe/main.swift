// seedkit-loader-probe: runs SeedLoader.prepare() in a process of its own so tests can kill it
// (SIGKILL) at a named point of a first launch (Tests/SeedKitTests/SeedLoaderKillTests.swift).
//
//   seedkit-loader-probe SEED STORE [--pause PHASE[:STEP] | --pause commit:N] [--batch-size N]
//
// SEED is a seed store, or a plan file (.yaml/.json). With --pause PHASE[:STEP], the probe stops
// on the loading thread at the first progress update of PHASE (copying, merging, importing,
// finished) whose step is STEP (default: any), prints `paused PHASE STEP` on standard output and
// sleeps until it is killed. A plan import runs on a thread of its own and reports its batches
// asynchronously, so to stop it at a batch use --pause commit:N: the thread committing the Nth
// transaction that changes object rows of STORE (or of its temporary copy) stops inside that
// commit (see CommitGate.swift), prints `paused commit N` and sleeps. Without --pause, it prints
// `outcome …` and `commits N` (the data commits made). Exit 1 with the error on standard error.
import Foundation
import SeedKit

/// The point to stop at: a phase and optionally a step (nil: the first update of the phase), or
/// the Nth data commit (`commit:N`).
struct PausePoint: Sendable {
    let phase: SeedLoader.Progress.Phase?
    let step: Int?

    init?(_ text: String) {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard let name = parts.first else { return nil }
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
    case let other: fail("unknown option \(other)")
    }
}
guard arguments.count == 2 else {
    fail("usage: seedkit-loader-probe SEED STORE [--pause PHASE[:STEP] | --pause commit:N] [--batch-size N]")
}
CommitGate.install(store: arguments[1], stopAt: pause?.commit)
if let pause, pause.commit == nil {
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
