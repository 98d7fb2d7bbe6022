// Writes `--json` reports: one JSON document on standard output, keys sorted for stable output.
import Foundation

/// Encodes command reports as JSON on standard output.
enum JSONOutput {
    /// Prints `value` as pretty, key-sorted JSON followed by a newline.
    static func print<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        Swift.print(String(decoding: data, as: UTF8.self))
    }
}
