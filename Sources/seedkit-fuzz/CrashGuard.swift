// CrashGuard: saves the input being parsed when the process crashes (a Swift trap is SIGILL
// or SIGTRAP; memory errors SIGSEGV/SIGBUS) or hangs (SIGALRM from a per-input watchdog), so
// every finding is reproducible. The handlers only call async-signal-safe functions.
//
// The handlers read process-wide state that a signal handler cannot be passed: it is set
// once per input by the single fuzzing thread before parsing starts, hence
// `nonisolated(unsafe)`.

#if canImport(Glibc)
    import Glibc
#endif

/// The current input (owned copy) and where to save it; read by the signal handlers.
nonisolated(unsafe) private var currentInput: UnsafeMutableBufferPointer<UInt8> = .init(start: nil, count: 0)
nonisolated(unsafe) private var crashPath: UnsafeMutablePointer<CChar>?
nonisolated(unsafe) private var hangPath: UnsafeMutablePointer<CChar>?

enum CrashGuard {
    /// Installs the handlers; findings are written as `<directory>/crash-<format>.bin` or
    /// `<directory>/hang-<format>.bin` once `track` names the format.
    static func install() {
        for signal in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE] {
            Glibc.signal(signal) { number in save(crashPath, reason: "crash", signal: number) }
        }
        Glibc.signal(SIGALRM) { number in save(hangPath, reason: "hang", signal: number) }
    }

    /// Names the output files for `format` in `directory`.
    static func track(format: String, directory: String) {
        free(crashPath)
        free(hangPath)
        crashPath = strdup("\(directory)/crash-\(format).bin")
        hangPath = strdup("\(directory)/hang-\(format).bin")
    }

    /// Keeps a copy of the input about to be parsed and arms a watchdog of `seconds`.
    static func begin(_ input: [UInt8], seconds: UInt32) {
        currentInput.deallocate()
        currentInput = .allocate(capacity: max(input.count, 1))
        _ = currentInput.initialize(from: input)
        currentInput = UnsafeMutableBufferPointer(rebasing: currentInput[0..<input.count])
        alarm(seconds)
    }

    /// Disarms the watchdog.
    static func end() { alarm(0) }
}

/// Writes the current input to `path` and exits; async-signal-safe.
private func save(_ path: UnsafeMutablePointer<CChar>?, reason: StaticString, signal number: Int32) {
    if let path {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if descriptor >= 0 {
            _ = write(descriptor, currentInput.baseAddress, currentInput.count)
            close(descriptor)
        }
        let prefix: StaticString = "seedkit-fuzz: "
        _ = write(2, prefix.utf8Start, prefix.utf8CodeUnitCount)
        _ = write(2, reason.utf8Start, reason.utf8CodeUnitCount)
        _ = write(2, ", input saved to ", 17)
        _ = write(2, path, strlen(path))
        _ = write(2, "\n", 1)
    }
    _exit(number == SIGALRM ? 3 : 4)
}
