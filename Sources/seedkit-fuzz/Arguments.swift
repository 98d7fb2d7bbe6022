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

    /// The size given by `--name` in bytes, or `fallback` when absent; `nil` when it is not a
    /// size. A number may end in K, M or G (powers of 1000) or KiB, MiB or GiB (powers of
    /// 1024), with or without a final B: `1200000000`, `1.2G`, `1GiB`, `500MB`.
    func byteCount(_ name: String, _ fallback: Int) -> Int? {
        guard let text = options[name] else { return fallback }
        let units: [(suffix: String, scale: Double)] = [
            ("GIB", 1_073_741_824), ("MIB", 1_048_576), ("KIB", 1024), ("GB", 1e9), ("MB", 1e6), ("KB", 1e3),
            ("G", 1e9), ("M", 1e6), ("K", 1e3), ("B", 1),
        ]
        let upper = text.uppercased()
        let unit = units.first { upper.hasSuffix($0.suffix) }
        guard let number = Double(upper.dropLast(unit?.suffix.count ?? 0)), number >= 0 else { return nil }
        let bytes = number * (unit?.scale ?? 1)
        guard bytes < 1e18 else { return nil }
        return Int(bytes.rounded(.up))
    }

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
