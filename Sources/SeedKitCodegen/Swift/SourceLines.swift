// A small line builder for generated source: indentation by nesting, one blank line between
// declarations, and a trailing newline, so every generator writes the same layout.

/// Lines of generated text, indented by four spaces per level.
struct SourceLines {
    private(set) var lines: [String] = []
    private var depth = 0

    /// Appends `line` at the current indentation (an empty line stays empty).
    mutating func add(_ line: String) {
        lines.append(line.isEmpty ? "" : String(repeating: "    ", count: depth) + line)
    }

    /// Appends a blank line unless the last line is blank or opens a block.
    mutating func separate() {
        guard let last = lines.last, !last.isEmpty, !last.hasSuffix("{") else { return }
        lines.append("")
    }

    /// Appends `opening`, then what `body` adds one level deeper, then `}`.
    mutating func block(_ opening: String, _ body: (inout SourceLines) -> Void) {
        add(opening + " {")
        depth += 1
        body(&self)
        depth -= 1
        add("}")
    }

    /// The text: the lines joined, ending in a newline.
    var text: String {
        lines.joined(separator: "\n") + "\n"
    }
}
