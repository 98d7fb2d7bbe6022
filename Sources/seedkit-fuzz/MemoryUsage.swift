// MemoryUsage: this process's memory as Linux reports it, for the fuzz and memory commands —
// the resident set size now (/proc/self/statm), its peak since the last reset (VmHWM in
// /proc/self/status, reset by writing 5 to /proc/self/clear_refs) — and a cap on the address
// space (RLIMIT_AS), so a reader that allocates without bound fails fast instead of taking
// the machine's memory. Reading fails soft: 0 (or `false`) when /proc is unavailable.

#if canImport(Glibc)
    import Glibc
#endif

enum MemoryUsage {
    /// The resident set size of this process, in bytes (0 if unknown).
    static func residentBytes() -> Int {
        guard let text = readProcFile("/proc/self/statm") else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count >= 2, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The peak resident set size since the process started or `resetPeak()` last
    /// succeeded, in bytes (`VmHWM`; 0 if unknown).
    static func peakResidentBytes() -> Int {
        guard let text = readProcFile("/proc/self/status") else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let kilobytes = line.dropFirst(6).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap {
                Int($0)
            }
            return (kilobytes ?? 0) * 1024
        }
        return 0
    }

    /// Resets the peak resident set size to the current one; `false` if the kernel refused.
    @discardableResult
    static func resetPeak() -> Bool {
        let descriptor = open("/proc/self/clear_refs", O_WRONLY)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return write(descriptor, "5", 1) == 1
    }

    /// Caps this process's address space at `bytes` (`setrlimit(RLIMIT_AS)`): allocations
    /// beyond it fail (Swift then traps, which CrashGuard reports as a crash; libxml2
    /// reports a memory error). `false` if the limit could not be set.
    static func limitAddressSpace(to bytes: Int) -> Bool {
        var limit = rlimit()
        guard getrlimit(RLIMIT_AS_RESOURCE, &limit) == 0 else { return false }
        let wanted = rlim_t(bytes)
        // The soft limit cannot exceed the hard one (RLIM_INFINITY is the largest rlim_t).
        limit.rlim_cur = min(wanted, limit.rlim_max)
        return setrlimit(RLIMIT_AS_RESOURCE, &limit) == 0
    }

    /// `bytes` in MiB with one decimal: `21.9`.
    static func mebibytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + (1 << 19)) >> 20
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// RLIMIT_AS, typed as setrlimit wants it on this C library.
    private static var RLIMIT_AS_RESOURCE: __rlimit_resource_t { __rlimit_resource_t(RLIMIT_AS.rawValue) }

    /// The text of a small /proc file (up to 4 KiB).
    private static func readProcFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var count = 0
        while count < buffer.count {
            let read = buffer.withUnsafeMutableBufferPointer { pointer in
                Glibc.read(descriptor, pointer.baseAddress.map { $0 + count }, pointer.count - count)
            }
            if read <= 0 { break }
            count += read
        }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }
}
