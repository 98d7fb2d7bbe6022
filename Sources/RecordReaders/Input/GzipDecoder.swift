// GzipDecoder: inflates gzip data with zlib as a reader asks for text, a chunk at a time.
//
// Several members one after the other (`cat a.gz b.gz`) are one text, as `gunzip` reads them;
// zero bytes after a member (tape or block padding) are ignored. A corrupt stream, bytes after
// the last member that are not another member, and a stream that ends before its trailer are
// `.compression` errors at the offset in the compressed file where zlib found them. Text
// inflated before an error is handed out first, so a reader returns the records before it.
// Invariants: the z_stream lives at a fixed address (zlib keeps a pointer back to it); at most
// one chunk of compressed input is held.

internal import CZlib

/// Gzip file names: `items.csv.gz`.
enum GzipName {
    /// The extension of gzip files.
    static let suffix = ".gz"

    /// Whether `name` ends in `.gz` (any case) after something else.
    static func isCompressed(_ name: String) -> Bool {
        name.utf8.count > suffix.utf8.count && name.lowercased().hasSuffix(suffix)
    }
}

/// Inflates the gzip members of a raw byte source.
final class GzipDecoder {
    /// The first two bytes of every gzip member.
    static let magic: (UInt8, UInt8) = (0x1F, 0x8B)
    /// zlib's window bits for gzip data only: 15 (the largest window) + 16.
    private static let gzipWindowBits: Int32 = 15 + 16

    private let name: String
    private let stream: UnsafeMutablePointer<z_stream>
    private let compressed: UnsafeMutablePointer<UInt8>
    private let compressedCapacity: Int
    /// Compressed bytes handed to zlib so far.
    private var fed = 0
    /// The compressed offset where the current member starts.
    private var memberStart = 0
    private var sourceEnded = false
    private var memberEnded = false
    /// An error found after some text was inflated, thrown once that text is handed out.
    private var pendingError: RecordReaderError?

    init(name: String, chunkSize: Int) throws(RecordReaderError) {
        self.name = name
        compressedCapacity = chunkSize
        compressed = .allocate(capacity: chunkSize)
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = inflateInit2_(stream, Self.gzipWindowBits, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deallocate()
            compressed.deallocate()
            throw RecordReaderError(.io, "cannot start gzip decompression (zlib status \(status))", file: name)
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
        compressed.deallocate()
    }

    /// Compressed bytes inflated so far.
    var consumed: Int { fed - Int(stream.pointee.avail_in) }

    /// Inflates up to `count` bytes into `destination`, reading compressed bytes from `raw` as
    /// needed; 0 at the end of the last member.
    func read(into destination: UnsafeMutablePointer<UInt8>, count: Int, from raw: RawBytes) throws(RecordReaderError)
        -> Int
    {
        if let pendingError { throw pendingError }
        stream.pointee.next_out = destination
        stream.pointee.avail_out = UInt32(clamping: count)
        do {
            try inflateAvailable(from: raw)
        } catch {
            let produced = count - Int(stream.pointee.avail_out)
            guard produced > 0 else { throw error }
            pendingError = error
            return produced
        }
        return count - Int(stream.pointee.avail_out)
    }

    /// Inflates until the output is full or the last member has ended.
    private func inflateAvailable(from raw: RawBytes) throws(RecordReaderError) {
        while stream.pointee.avail_out > 0 {
            if stream.pointee.avail_in == 0, !sourceEnded {
                let read = try raw.read(into: compressed, count: compressedCapacity)
                if read == 0 {
                    sourceEnded = true
                } else {
                    stream.pointee.next_in = compressed
                    stream.pointee.avail_in = UInt32(read)
                    fed += read
                }
            }
            if memberEnded {
                skipPadding()
                guard stream.pointee.avail_in > 0 else {
                    if sourceEnded { return }
                    continue
                }
                inflateReset(stream)
                memberEnded = false
                memberStart = consumed
            }
            switch inflate(stream, Z_NO_FLUSH) {
            case Z_OK:
                continue
            case Z_STREAM_END:
                memberEnded = true
            case Z_BUF_ERROR where stream.pointee.avail_in == 0 && !sourceEnded:
                continue
            case Z_BUF_ERROR:
                throw RecordReaderError(
                    .compression, "truncated gzip data: the file ends at byte \(fed) inside the gzip stream",
                    file: name, byteOffset: fed)
            default:
                throw corruption()
            }
        }
    }

    /// Skips the zero bytes after a member.
    private func skipPadding() {
        while stream.pointee.avail_in > 0, let next = stream.pointee.next_in, next.pointee == 0 {
            stream.pointee.next_in = next + 1
            stream.pointee.avail_in -= 1
        }
    }

    /// The error for what zlib refused, at the compressed offset it reached.
    private func corruption() -> RecordReaderError {
        let offset = consumed
        let message = stream.pointee.msg.map { String(cString: $0) } ?? "invalid data"
        let atMemberStart = offset - memberStart <= 2 && message == "incorrect header check"
        let reason: String
        if atMemberStart && memberStart == 0 {
            reason = "not gzip data: it does not start with the gzip header (bytes 1f 8b)"
        } else if atMemberStart {
            reason = "unexpected bytes after the gzip stream, at byte \(memberStart)"
        } else {
            reason = "corrupt gzip data at byte \(offset) of the compressed file: \(message)"
        }
        return RecordReaderError(.compression, reason, file: name, byteOffset: atMemberStart ? memberStart : offset)
    }
}
