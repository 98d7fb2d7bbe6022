// ByteSource: the bytes of an InputSource as its reader sees them — read from a file with
// `open`/`read` or copied from memory, and inflated on the way when they are gzip data (a name
// ending in `.gz`, or content starting with gzip's magic bytes 1f 8b).
// Invariants: `read` returns 0 only at the end of the text; `compressedConsumed` counts the
// compressed bytes inflated so far, for progress.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `read(2)`, named apart from `RawBytes.read`.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

/// The undecoded bytes of a source: an open file or an array in memory.
final class RawBytes {
    private var descriptor: Int32 = -1
    private let memory: [UInt8]
    private var memoryOffset = 0
    /// The input's name, for errors.
    let name: String

    init(_ source: InputSource) throws(RecordReaderError) {
        name = source.name
        switch source {
        case .file(let path):
            memory = []
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            if descriptor < 0 {
                throw RecordReaderError(.io, "cannot open: \(RawBytes.lastError())", file: path)
            }
        case .bytes(let bytes, _):
            memory = bytes
        }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Whether the source starts with gzip's magic bytes (a file is looked at without moving
    /// its read position; a pipe, which cannot be, is taken as not compressed).
    var startsWithGzipMagic: Bool {
        var head: (UInt8, UInt8) = (0, 0)
        if descriptor >= 0 {
            guard withUnsafeMutableBytes(of: &head, { pread(descriptor, $0.baseAddress, 2, 0) }) == 2 else {
                return false
            }
        } else {
            guard memory.count >= 2 else { return false }
            head = (memory[0], memory[1])
        }
        return head == GzipDecoder.magic
    }

    /// Reads up to `count` bytes into `destination`; 0 at the end of the input.
    func read(into destination: UnsafeMutablePointer<UInt8>, count: Int) throws(RecordReaderError) -> Int {
        guard descriptor >= 0 else {
            let available = min(count, memory.count - memoryOffset)
            guard available > 0 else { return 0 }
            memory.withUnsafeBufferPointer { source in
                if let start = source.baseAddress {
                    destination.update(from: start + memoryOffset, count: available)
                }
            }
            memoryOffset += available
            return available
        }
        while true {
            let read = systemRead(descriptor, destination, count)
            if read >= 0 { return read }
            if errno != EINTR {
                throw RecordReaderError(.io, "cannot read: \(RawBytes.lastError())", file: name)
            }
        }
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}

/// The text of a source, read a chunk at a time: its raw bytes, or those inflated.
final class ByteSource {
    private let raw: RawBytes
    private let decoder: GzipDecoder?
    /// The largest read.
    let chunkSize: Int

    /// Opens `source`; gzip data when its name ends in `.gz` or it starts with gzip's magic.
    init(_ source: InputSource, chunkSize: Int) throws(RecordReaderError) {
        self.chunkSize = max(chunkSize, 1)
        raw = try RawBytes(source)
        decoder =
            GzipName.isCompressed(source.name) || raw.startsWithGzipMagic
            ? try GzipDecoder(name: source.name, chunkSize: self.chunkSize) : nil
    }

    /// For gzip input, the compressed bytes inflated so far; `nil` for text read as it is.
    var compressedConsumed: Int? { decoder?.consumed }

    /// Reads up to one chunk of text into `destination` (at most `room` bytes); 0 at the end.
    func read(into destination: UnsafeMutablePointer<UInt8>, room: Int) throws(RecordReaderError) -> Int {
        let wanted = min(room, chunkSize)
        if let decoder { return try decoder.read(into: destination, count: wanted, from: raw) }
        return try raw.read(into: destination, count: wanted)
    }
}
