// Arguments: a minimal `command positional --option value --flag` parser for seedkit-fuzz,
// which depends on RecordReaders only.

import RecordReaders

#if canImport(Glibc)
    import Glibc
#endif

/// The command line of seedkit-fuzz.
struct Arguments {
    /// The first word: fuzz, bench, generate, memory.
    let command: String
    /// Words that are neither options nor option values.
    private(set) var positional: [String] = []
    private var options: [String: String] = [:]

    init(_ words: [String]) {
        command = words.first ?? "help"
        var index = 1
        while index < words.count {
            let word = words[index]
            if word.hasPrefix("-") {
                let name = String(word.drop(while: { $0 == "-" }))
                if index + 1 < words.count, !words[index + 1].hasPrefix("--") {
                    options[name] = words[index + 1]
                    index += 2
                } else {
                    options[name] = ""
                    index += 1
                }
            } else {
                positional.append(word)
                index += 1
            }
        }
    }

    /// The value of `--name`, if given.
    func string(_ name: String) -> String? { options[name] }

    /// The integer value of `--name`, or `fallback`.
    func int(_ name: String, _ fallback: Int) -> Int { options[name].flatMap { Int($0) } ?? fallback }

    /// The formats named by `--format` (`all` or absent: every format).
    func formats() -> [RecordFormat]? {
        guard let name = options["format"], name != "all" else { return RecordFormat.allCases }
        return RecordFormat(rawValue: name).map { [$0] }
    }
}

/// Prints `message` on standard error.
func printError(_ message: String) {
    var line = message + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

/// Seconds since an arbitrary start, for timing.
func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
}
