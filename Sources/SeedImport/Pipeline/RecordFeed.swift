// Where a source's records come from, on its reader thread (RecordStage): a pass over its file
// (FileFeed), which also spills the records of the file's later sources (SharedReads,
// RecordSpill), or the spill an earlier pass made for it (SpillFeed). Either way the source
// sees its own records in file order, broken records included, with their positions in the file.
import RecordReaders

/// Where a source's records come from; opened on the reader thread.
enum RecordInput: Sendable {
    /// A pass over the file, spilling its followers' records into `spill` (nil without followers).
    case pass(FilePass, spill: RecordSpill?)
    /// The records an earlier pass spilled for `source`, selected by the reader's path `selection`.
    case replay(RecordSpill, source: Int, selection: Int)

    /// The records, from the start.
    func open() throws(RecordReaderError) -> any RecordFeed {
        switch self {
        case .pass(let pass, let spill): try FileFeed(pass: pass, spill: spill)
        case .replay(let spill, let source, let selection):
            try SpillFeed(spill: spill, source: source, selection: selection)
        }
    }
}

/// A source's records, one at a time.
protocol RecordFeed {
    /// `mapping` with its top-level fields resolved against the file (CSV header names become columns).
    func resolve(_ mapping: CompiledMapping) throws(RecordReaderError) -> CompiledMapping
    /// The next record, or the error of a broken record; nil after the last. Throws the errors
    /// after which nothing can be read.
    mutating func nextResult() throws(RecordReaderError) -> Result<SourceRecord, RecordReaderError>?
    /// Bytes of the file consumed when the last record was read, for progress.
    var bytesConsumed: Int { get }
}

/// A pass over a file: its source's records, the followers' spilled.
struct FileFeed: RecordFeed {
    private var reader: any RecordReader
    private let spill: RecordSpill?
    private let writer: SpillWriter?
    /// Per reader selection: whether a follower takes its records.
    private let spilled: [Bool]

    init(pass: FilePass, spill: RecordSpill?) throws(RecordReaderError) {
        let reader = try RecordReaderFactory.open(.file(pass.file), format: pass.format, options: pass.options)
        self.reader = reader
        var spilled = Array(repeating: false, count: 1 + pass.options.additionalRecords.count)
        if let spill, !pass.followers.isEmpty {
            for follower in pass.followers {
                spill.keep(
                    Result { () throws(RecordReaderError) in try RecordStage.resolve(follower.mapping, with: reader) },
                    for: follower.source)
                spilled[follower.selection] = true
            }
            self.spill = spill
            writer = try SpillWriter(path: spill.path)
        } else {
            self.spill = nil
            writer = nil
        }
        self.spilled = spilled
    }

    func resolve(_ mapping: CompiledMapping) throws(RecordReaderError) -> CompiledMapping {
        try RecordStage.resolve(mapping, with: reader)
    }

    var bytesConsumed: Int { reader.bytesConsumed }

    mutating func nextResult() throws(RecordReaderError) -> Result<SourceRecord, RecordReaderError>? {
        while let result = try reader.nextResult() {
            switch result {
            case .success(let record):
                let selection = record.selection
                if let writer, spilled[selection] {
                    try writer.write(record, selection: selection, bytesConsumed: reader.bytesConsumed)
                }
                if selection == 0 { return result }
            case .failure(let error):
                // A broken record has no record path: it is every source's.
                try writer?.write(broken: error, bytesConsumed: reader.bytesConsumed)
                return result
            }
        }
        if let writer, let spill {
            try writer.finish()
            spill.markComplete()
        }
        return nil
    }
}

/// The records a pass spilled for one of its followers.
struct SpillFeed: RecordFeed {
    private let reader: SpillReader
    private let mapping: Result<CompiledMapping, RecordReaderError>
    private let selection: Int
    private(set) var bytesConsumed = 0

    init(spill: RecordSpill, source: Int, selection: Int) throws(RecordReaderError) {
        reader = try SpillReader(path: spill.path)
        mapping =
            spill.mapping(for: source)
            ?? .failure(RecordReaderError(.io, "the shared pass did not resolve this source", file: spill.path))
        self.selection = selection
    }

    /// The mapping as the pass resolved it against the file.
    func resolve(_ mapping: CompiledMapping) throws(RecordReaderError) -> CompiledMapping {
        try self.mapping.get()
    }

    mutating func nextResult() throws(RecordReaderError) -> Result<SourceRecord, RecordReaderError>? {
        guard let (result, bytesConsumed) = try reader.next(selection: selection) else { return nil }
        self.bytesConsumed = bytesConsumed
        return result
    }
}
