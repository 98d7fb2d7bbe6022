// Which sources of a plan read the same file the same way, so that one pass over the file
// feeds them all (docs/Readers.md): sources share a pass when they name the same file (the
// resolved path), the same format and the same reader options (CSV dialect, limits); JSON and
// XML sources with different record paths too, when the paths are disjoint (one reader then
// selects by all of them and tells which path selected each record). The source a pass starts
// at reads the file; the records of the later sources of its group are spilled (RecordSpill)
// and replayed in their turn, so each source still sees its records in plan order, with their
// positions in the file.
// A resumed run starts a new pass at the source it resumes (a spill does not outlive its run).
// Invariants: a pass selects by its own source's record path first (selection 0), so a reader
// error counts records as that source's own pass would; a spill is removed once its last
// source has read it, and every spill when the run starts (a killed run's) and ends (also when
// it fails).
import Foundation
import RecordReaders

/// One pass over a file: the source it reads for, and the later sources of the file's group
/// whose records it spills.
struct FilePass: Sendable {
    /// A later source of the group.
    struct Follower: Sendable {
        /// The source's index in the plan.
        let source: Int
        /// The reader's record path that selects its records (0: the pass's own source's).
        let selection: Int
        /// Its mapping, to resolve against the file while the pass has it open.
        let mapping: CompiledMapping
    }

    /// The resolved file.
    let file: String
    /// The format the plan names (nil: from the file's extension).
    let format: RecordFormat?
    /// The reader options: the source's own record path, then its followers' other paths.
    let options: ReaderOptions
    /// The source the pass reads for.
    let source: Int
    /// The later sources of the group, in plan order.
    let followers: [Follower]
}

/// The groups of sources that read one file in one pass, and the passes and spills of a run.
final class SharedReads {
    private let files: [String]
    private let formats: [RecordFormat?]
    private let options: [ReaderOptions]
    private let mappings: [CompiledMapping]
    /// The group of each source: its sources in plan order.
    private var groupOf: [[Int]] = []
    /// Where spill files go: this path with the pass's source number appended.
    private let spillPrefix: String
    /// The spill that holds each later source's records, with its reader selection.
    private var spilled: [Int: (spill: RecordSpill, selection: Int)] = [:]

    /// What makes two sources read a file the same way (the record path aside).
    private struct ReadKey: Hashable {
        let file: String
        let format: RecordFormat
        let options: ReaderOptions
    }

    /// The groups of sources reading `files` (resolved) in `formats` with `options`, to be
    /// mapped with `mappings` (one of each per source, in plan order); spill files are named
    /// `spillPrefix` and a number.
    init(
        files: [String], formats: [RecordFormat?], options: [ReaderOptions], mappings: [CompiledMapping],
        spillPrefix: String
    ) {
        self.spillPrefix = spillPrefix
        self.files = files
        self.formats = formats
        self.options = options
        self.mappings = mappings
        var groups: [(key: ReadKey, paths: [String?], sources: [Int])] = []
        var groupIndex: [Int] = []
        for source in files.indices {
            guard let key = Self.readKey(files[source], formats[source], options[source]) else {
                groupIndex.append(groups.count)
                groups.append((ReadKey(file: "", format: .csv, options: ReaderOptions()), [], [source]))
                continue
            }
            let path = Self.selectsByPath(key.format) ? options[source].records : nil
            let joined = groups.indices.first { index in
                groups[index].key == key
                    && (groups[index].paths.contains(path)
                        || RecordReaderFactory.canSelectTogether(groups[index].paths + [path], format: key.format))
            }
            if let joined {
                if !groups[joined].paths.contains(path) { groups[joined].paths.append(path) }
                groups[joined].sources.append(source)
                groupIndex.append(joined)
            } else {
                groupIndex.append(groups.count)
                groups.append((key, [path], [source]))
            }
        }
        groupOf = groupIndex.map { groups[$0].sources }
    }

    /// Where `source`'s records come from: the spill an earlier pass of the run made for it,
    /// else a new pass over its file (then `isPass`), spilling for the later sources of its group.
    func input(for source: Int) -> (input: RecordInput, isPass: Bool) {
        if let (spill, selection) = spilled[source], spill.isComplete {
            return (.replay(spill, source: source, selection: selection), false)
        }
        let pass = pass(from: source)
        guard !pass.followers.isEmpty else { return (.pass(pass, spill: nil), true) }
        let spill = RecordSpill(path: spillPath(source), followers: pass.followers.map(\.source))
        for follower in pass.followers { spilled[follower.source] = (spill, follower.selection) }
        return (.pass(pass, spill: spill), true)
    }

    /// Notes that `source` has read all its records: a spill whose last source it was goes.
    func finished(_ source: Int) {
        guard let spill = spilled.removeValue(forKey: source)?.spill, spill.followers.last == source else { return }
        spill.remove()
    }

    /// Removes every spill file of the run — and those a killed run of the plan left behind.
    func removeSpills() {
        for source in files.indices { try? FileManager.default.removeItem(atPath: spillPath(source)) }
    }

    private func spillPath(_ source: Int) -> String {
        spillPrefix + String(source)
    }

    /// The pass that reads `source`'s file for it and spills the records of the later sources
    /// of its group.
    private func pass(from source: Int) -> FilePass {
        var options = options[source]
        let selectsByPath = (formats[source] ?? RecordFormat(path: files[source])).map(Self.selectsByPath) ?? false
        var paths = [options.records]
        let followers = groupOf[source].filter { $0 > source }.map { follower in
            // Without record paths every record goes to every source: selection 0.
            var selection = 0
            if selectsByPath {
                let path = self.options[follower].records
                if !paths.contains(path) { paths.append(path) }
                selection = paths.firstIndex(of: path) ?? 0
            }
            return FilePass.Follower(source: follower, selection: selection, mapping: mappings[follower])
        }
        options.additionalRecords = Array(paths.dropFirst())
        return FilePass(
            file: files[source], format: formats[source], options: options, source: source, followers: followers)
    }

    private static func selectsByPath(_ format: RecordFormat) -> Bool {
        format == .json || format == .xml
    }

    /// The key of a source that can share a pass, or nil when its format is unknown (its reader
    /// then reports that, alone).
    private static func readKey(_ file: String, _ format: RecordFormat?, _ options: ReaderOptions) -> ReadKey? {
        guard let format = format ?? RecordFormat(path: file) else { return nil }
        var readOptions = options
        readOptions.records = nil
        readOptions.additionalRecords = []
        if format == .tsv, readOptions.csv == nil { readOptions.csv = .tsv }
        if format == .csv, readOptions.csv == nil { readOptions.csv = CSVOptions() }
        let path = URL(fileURLWithPath: file).standardizedFileURL.resolvingSymlinksInPath().path
        return ReadKey(file: path, format: format == .tsv ? .csv : format, options: readOptions)
    }
}
