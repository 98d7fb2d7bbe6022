// Ctrl-C (SIGINT) and SIGTERM during a long command (`import`, `copy`, `build`, `migrate`) as a
// Swift task cancellation: the work runs in a task that the first signal cancels, so the library
// stops between batches and puts the store back (docs/CLI.md, "Cancelling"); the command then
// ends with `seedkit: cancelled` and exit 130 (SIGINT) or 143 (SIGTERM). A second signal exits at
// once, like a kill: what the run committed stays until the next run into the store undoes it
// (a migration's new file is removed by the next migration).
// `export -o FILE`, which only reads its store, ends at once on the first signal instead, after
// removing the temporary file it was writing.
// Invariants: the signals are ignored by default only while a cancellable piece of work runs and
// are read through dispatch sources; a signal that arrives after the work has finished (its
// last batch committed) changes nothing: the command completes normally.
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a command's work so that SIGINT and SIGTERM cancel it.
enum SignalCancellation {
    /// The signals that cancel the work.
    static let signals = [SIGINT, SIGTERM]

    /// Runs `work` in a task that the first SIGINT or SIGTERM cancels, and returns its result.
    ///
    /// ```swift
    /// let report = try await SignalCancellation.run { try await importer.run() }
    /// ```
    ///
    /// - Throws: ``CancelledBySignal`` when a signal cancelled the work and it stopped
    ///   (`CancellationError`), else what `work` throws.
    static func run<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let received = Mutex<Int32?>(nil)
        let task = Task { try await work() }
        let sources = watch { number in
            let first = received.withLock { signal in
                guard signal == nil else { return false }
                signal = number
                return true
            }
            if first {
                task.cancel()
            } else {
                _exit(CancelledBySignal(signal: number).exitCode)
            }
        }
        defer { unwatch(sources) }
        do {
            return try await task.value
        } catch is CancellationError {
            guard let number = received.withLock({ $0 }) else { throw CancellationError() }
            throw CancelledBySignal(signal: number)
        }
    }

    /// Runs `work`, which writes nothing but a temporary file, so that SIGINT or SIGTERM ends the
    /// command at once: `cleanup` removes what `work` was writing, `seedkit: cancelled` goes to
    /// standard error and the process exits with 130 or 143.
    static func endingAtOnce<T>(cleanup: @escaping @Sendable () -> Void, _ work: () throws -> T) throws -> T {
        let sources = watch { number in
            cleanup()
            DataFailure.report("cancelled")
            _exit(CancelledBySignal(signal: number).exitCode)
        }
        defer { unwatch(sources) }
        return try work()
    }

    /// Ignores the signals' default action and calls `handler` (on a dispatch queue) with each
    /// one received instead.
    private static func watch(_ handler: @escaping @Sendable (Int32) -> Void) -> [any DispatchSourceSignal] {
        signals.map { number in
            // The default action would end the process; the dispatch source reports the signal instead.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { handler(number) }
            source.resume()
            return source
        }
    }

    /// Stops reading the signals and gives them back their default action.
    private static func unwatch(_ sources: [any DispatchSourceSignal]) {
        for source in sources { source.cancel() }
        for number in signals { signal(number, SIG_DFL) }
    }
}

/// Work that a signal cancelled; the library left the store as it was.
struct CancelledBySignal: Error {
    /// The signal that cancelled it.
    let signal: Int32

    /// The exit status of a process ended by the signal: 128 + its number (130 for SIGINT,
    /// 143 for SIGTERM).
    var exitCode: Int32 { 128 + signal }
}
