// Writing generated files for `seedkit generate`: a file is written only when its text changed
// (so builds recompile nothing else), and the files an earlier run generated for entities that
// are gone — they start with the generator's header — are removed; other files are never touched.
import Foundation
import SeedKitCodegen

/// Writing generated files without touching those that did not change.
enum GeneratedFiles {
    /// What ``replace(_:in:)`` did.
    struct Report {
        var written: [String] = []
        var unchanged: [String] = []
        var removed: [String] = []

        /// `generated 5 files in DIR (2 written, 3 unchanged); removed Old.swift`.
        func summary(folder: String) -> String {
            let total = written.count + unchanged.count
            var text =
                "generated \(counted(total, "file")) in \(folder) (\(written.count) written, \(unchanged.count) unchanged)"
            if !removed.isEmpty { text += "; removed " + removed.joined(separator: ", ") }
            return text
        }
    }

    /// Writes `file` to `url` unless it already holds exactly that text; true when written.
    static func write(_ file: GeneratedFile, to url: URL) throws -> Bool {
        let data = Data(file.contents.utf8)
        if (try? Data(contentsOf: url)) == data { return false }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url, options: .atomic)
        return true
    }

    /// Writes `files` into `folder` (created when missing) and removes the `.swift` files an
    /// earlier run generated there (they start with the generator's header) that `files` no
    /// longer holds.
    static func replace(_ files: [GeneratedFile], in folder: URL) throws -> Report {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var report = Report()
        for file in files {
            if try write(file, to: folder.appendingPathComponent(file.name)) {
                report.written.append(file.name)
            } else {
                report.unchanged.append(file.name)
            }
        }
        let current = Set(files.map(\.name))
        let existing = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        for name in existing where name.hasSuffix(".swift") && !current.contains(name) {
            let url = folder.appendingPathComponent(name)
            guard let handle = FileHandle(forReadingAtPath: url.path) else { continue }
            let marker = Data(SwiftCodeGenerator.headerPrefix.utf8)
            let head = (try? handle.read(upToCount: marker.count)) ?? Data()
            try? handle.close()
            if head == marker {
                try FileManager.default.removeItem(at: url)
                report.removed.append(name)
            }
        }
        return report
    }
}
