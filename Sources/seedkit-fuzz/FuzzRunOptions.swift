// FuzzRunOptions: the options both fuzz loops take (`fuzz` over the record readers, `stores`
// over store files): the random seed, the folder findings go to, and the memory caps; and the
// start of a run under those caps.
import ArgumentParser

/// `--seed`, `--out`, `--max-memory` and `--max-rss`.
struct FuzzRunOptions: ParsableArguments {
    @Option(help: "The random seed.")
    var seed: UInt64 = 1

    @Option(help: "The folder findings are saved in.")
    var out = "."

    @Option(help: "The address-space cap in MiB (0: no cap).")
    var maxMemory = Self.defaultMaxMemory

    @Option(help: "The resident-set cap in MiB.")
    var maxRss = Self.defaultMaxResident

    /// The default address-space cap, in MiB (`--max-memory`); the fuzzer itself maps about
    /// 50 MiB, and no input (at most 4 KiB for a reader, 1 MiB for a store) needs more than a few.
    static let defaultMaxMemory = 1024
    /// The default resident-set cap, in MiB (`--max-rss`); a fuzzing run stays under 50 MiB.
    static let defaultMaxResident = 128

    func validate() throws {
        guard maxMemory >= 0, maxRss > 0 else {
            throw ValidationError("--max-memory must be 0 (no cap) or more, --max-rss more than 0")
        }
    }

    /// Caps the address space at `--max-memory` MiB (unless 0) and returns a watch of the
    /// resident set under `--max-rss`, sampled every `every` inputs.
    ///
    /// - Throws: `ExitCode(1)`, after saying why, when the cap cannot be set.
    func startWatching(every: Int) throws -> MemoryWatch {
        if maxMemory > 0, !MemoryUsage.limitAddressSpace(to: maxMemory << 20) {
            printError("seedkit-fuzz: cannot cap the address space at \(maxMemory) MiB")
            throw ExitCode(1)
        }
        return MemoryWatch(maxResident: maxRss << 20, every: every)
    }
}
