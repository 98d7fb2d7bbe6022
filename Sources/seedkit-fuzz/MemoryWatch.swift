// MemoryWatch: the fuzz loop's memory oracle. Every `every` inputs it reads the process's
// peak resident set size (VmHWM, reset at the start of each format and after each check, so
// a spike freed before the check is still seen); above the cap it finds the input to blame:
// if resident memory stays above the cap it is a leak and the last input is kept; otherwise
// the inputs since the last check are read again one by one, the peak reset before each,
// and the first that crosses the cap alone is the finding. Without a resettable peak (no
// /proc/self/clear_refs) it falls back to sampling the current resident set size.

/// Samples the fuzzer's memory and pins a crossing of the cap on one input.
struct MemoryWatch {
    /// The resident-set cap, in bytes.
    let maxResident: Int
    /// How many inputs between two samples.
    let every: Int
    /// Whether VmHWM can be reset (otherwise the current RSS is sampled).
    private(set) var peakResets = false
    /// The highest resident set size seen during the current format, in bytes.
    private(set) var formatPeak = 0
    /// The inputs read since the last sample, oldest first.
    private var recent: [[UInt8]] = []

    /// A watch with a cap of `maxResident` bytes, sampled every `every` inputs.
    init(maxResident: Int, every: Int) {
        self.maxResident = maxResident
        self.every = max(every, 1)
        recent.reserveCapacity(self.every)
    }

    /// Starts a format: resets the peak and forgets earlier inputs.
    mutating func startFormat() {
        peakResets = MemoryUsage.resetPeak()
        formatPeak = MemoryUsage.residentBytes()
        recent.removeAll(keepingCapacity: true)
    }

    /// The peak since the last reset (or the current RSS without resets), in bytes.
    private func sample() -> Int {
        peakResets ? MemoryUsage.peakResidentBytes() : MemoryUsage.residentBytes()
    }

    /// Notes that `input` was read; every `every` inputs, checks the cap. A crossing is
    /// returned as the input to blame and why; `reread` reads one input again exactly as the
    /// loop does (used to pin a spike on one input).
    mutating func afterInput(_ input: [UInt8], reread: ([UInt8]) -> Void) -> (input: [UInt8], reason: String)? {
        recent.append(input)
        guard recent.count >= every else { return nil }
        return check(reread: reread)
    }

    /// Checks the cap now (also at the end of a format); see `afterInput`.
    mutating func check(reread: ([UInt8]) -> Void) -> (input: [UInt8], reason: String)? {
        defer {
            recent.removeAll(keepingCapacity: true)
            if peakResets { MemoryUsage.resetPeak() }
        }
        let high = sample()
        formatPeak = max(formatPeak, high)
        guard high > maxResident, let last = recent.last else { return nil }
        let resident = MemoryUsage.residentBytes()
        let cap = MemoryUsage.mebibytes(maxResident)
        if resident > maxResident || !peakResets {
            return (
                last,
                "resident memory is \(MemoryUsage.mebibytes(resident)) MiB, above the \(cap) MiB cap "
                    + "(memory kept across inputs; the last input is saved)"
            )
        }
        for input in recent {
            MemoryUsage.resetPeak()
            reread(input)
            let peak = MemoryUsage.peakResidentBytes()
            formatPeak = max(formatPeak, peak)
            if peak > maxResident {
                return (
                    input, "reading this input peaked at \(MemoryUsage.mebibytes(peak)) MiB, above the \(cap) MiB cap"
                )
            }
        }
        return (
            last,
            "peak RSS \(MemoryUsage.mebibytes(high)) MiB above the \(cap) MiB cap within \(recent.count) inputs, "
                + "not reproduced by one alone (the last input is saved)"
        )
    }
}
