// The records a file pass keeps for the later sources of its file (SharedReads): written to a
// temporary file beside the store while the pass's own source reads the file, and read back
// when each later source's turn comes, so no source's records wait in memory.
// Format: one entry per record, in file order — a header (kind: record or broken record; the
// reader selection, i.e. the record path, that selected it; the input bytes consumed when it
// was read, for progress; the payload's length) and the payload: the record archived
// (RecordArchive, with its positions in the file), or a broken record's error.
// Invariants: a spill is replayed only once its pass reached the end of the file (`isComplete`);
// the run removes its spill files when it ends, also when it fails.
import Foundation
import RecordReaders
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The spill of one file pass, shared by the pass (which writes it on its reader thread) and the
/// run (which replays it for each later source).
final class RecordSpill: Sendable {
    /// The spill file.
    let path: String
    /// The sources whose records it holds, in plan order.
    let followers: [Int]
    private let state = Mutex(State())

    private struct State {
        var mappings: [Int: Result<CompiledMapping, RecordReaderError>] = [:]
        var isComplete = false
    }

    /// A spill at `path` for `followers`.
    init(path: String, followers: [Int]) {
        self.path = path
        self.followers = followers
    }

    /// Keeps `source`'s mapping as the pass resolved it against the file (or the error).
    func keep(_ mapping: Result<CompiledMapping, RecordReaderError>, for source: Int) {
        state.withLock { $0.mappings[source] = mapping }
    }

    /// `source`'s mapping resolved against the file.
    func mapping(for source: Int) -> Result<CompiledMapping, RecordReaderError>? {
        state.withLock { $0.mappings[source] }
    }

    /// Marks the spill as holding every record of the file.
    func markComplete() {
        state.withLock { $0.isComplete = true }
    }

    /// Whether the pass reached the end of the file.
    var isComplete: Bool { state.withLock { $0.isComplete } }

    /// Removes the spill file.
    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// One spilled entry's header.
private struct SpillHeader {
    static let size = 18
    /// 0: a record; 1: a broken record's error.
    var kind: UInt8
    var selection: UInt8
    var bytesConsumed: UInt64
    var length: UInt64

    var bytes: [UInt8] {
        var bytes = [kind, selection]
        withUnsafeBytes(of: bytesConsumed.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: length.littleEndian) { bytes.append(contentsOf: $0) }
        return bytes
    }

    init(kind: UInt8, selection: UInt8, bytesConsumed: UInt64, length: UInt64) {
        self.kind = kind
        self.selection = selection
        self.bytesConsumed = bytesConsumed
        self.length = length
    }

    init(_ bytes: [UInt8]) {
        func word(at start: Int) -> UInt64 {
            bytes[start..<start + 8].reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
        self.init(kind: bytes[0], selection: bytes[1], bytesConsumed: word(at: 2), length: word(at: 10))
    }
}

/// An open spill file, closed with its last reference.
private final class SpillFile {
    let path: String
    let file: UnsafeMutablePointer<FILE>

    /// Opens the file at `path` in `mode` (`fopen`'s), or throws saying it cannot be `opening`.
    init(path: String, mode: String, opening: String) throws(RecordReaderError) {
        guard let file = fopen(path, mode) else { throw Self.failure(opening, path) }
        self.path = path
        self.file = file
    }

    deinit { fclose(file) }

    /// The error of an I/O call that failed doing `what`.
    func failure(_ what: String) -> RecordReaderError {
        Self.failure(what, path)
    }

    private static func failure(_ what: String, _ path: String) -> RecordReaderError {
        RecordReaderError(
            .io, "\(what) the spill file of a shared pass: \(String(cString: strerror(errno)))", file: path)
    }
}

/// Appends entries to a spill file (on the reader thread of the pass).
final class SpillWriter {
    private let spill: SpillFile
    private var file: UnsafeMutablePointer<FILE> { spill.file }

    /// Creates (or empties) the spill file at `path`.
    init(path: String) throws(RecordReaderError) {
        spill = try SpillFile(path: path, mode: "wb", opening: "cannot create")
    }

    /// Appends `record`, selected by the reader's path `selection`, read with `bytesConsumed`.
    func write(_ record: SourceRecord, selection: Int, bytesConsumed: Int) throws(RecordReaderError) {
        try append(kind: 0, selection: selection, bytesConsumed: bytesConsumed, payload: record.archived())
    }

    /// Appends the error of a broken record the reader skipped.
    func write(broken error: RecordReaderError, bytesConsumed: Int) throws(RecordReaderError) {
        try append(kind: 1, selection: 0, bytesConsumed: bytesConsumed, payload: error.archived())
    }

    /// Writes out what is buffered.
    func finish() throws(RecordReaderError) {
        guard fflush(file) == 0 else { throw spill.failure("cannot write") }
    }

    private func append(kind: UInt8, selection: Int, bytesConsumed: Int, payload: [UInt8]) throws(RecordReaderError) {
        let header = SpillHeader(
            kind: kind, selection: UInt8(truncatingIfNeeded: selection), bytesConsumed: UInt64(bytesConsumed),
            length: UInt64(payload.count))
        guard fwrite(header.bytes, 1, SpillHeader.size, file) == SpillHeader.size,
            fwrite(payload, 1, payload.count, file) == payload.count
        else { throw spill.failure("cannot write") }
    }
}

/// Reads a spill file's entries back, for one source (on the reader thread of its replay).
final class SpillReader {
    private let spill: SpillFile
    private var file: UnsafeMutablePointer<FILE> { spill.file }

    /// Opens the spill file at `path`.
    init(path: String) throws(RecordReaderError) {
        spill = try SpillFile(path: path, mode: "rb", opening: "cannot open")
    }

    /// The next record selected by `selection` (or broken record) with the input bytes consumed
    /// when it was read; nil at the end.
    func next(selection: Int) throws(RecordReaderError) -> (Result<SourceRecord, RecordReaderError>, Int)? {
        while true {
            var headerBytes = [UInt8](repeating: 0, count: SpillHeader.size)
            let read = fread(&headerBytes, 1, SpillHeader.size, file)
            if read == 0 && feof(file) != 0 { return nil }
            guard read == SpillHeader.size else { throw damaged() }
            let header = SpillHeader(headerBytes)
            guard let length = Int(exactly: header.length) else { throw damaged() }
            if header.kind == 0 && Int(header.selection) != selection {
                guard fseeko(file, off_t(length), SEEK_CUR) == 0 else { throw damaged() }
                continue
            }
            var payload = [UInt8](repeating: 0, count: length)
            guard fread(&payload, 1, length, file) == length else { throw damaged() }
            let bytesConsumed = Int(clamping: header.bytesConsumed)
            switch header.kind {
            case 0:
                guard let record = SourceRecord(archive: payload) else { throw damaged() }
                return (.success(record), bytesConsumed)
            case 1:
                guard let error = RecordReaderError(archive: payload) else { throw damaged() }
                return (.failure(error), bytesConsumed)
            default:
                throw damaged()
            }
        }
    }

    private func damaged() -> RecordReaderError {
        RecordReaderError(.io, "the spill file of a shared pass is damaged or truncated", file: spill.path)
    }
}
