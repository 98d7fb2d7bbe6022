// GzipCompression: writes gzip data with zlib — one member holding the given bytes — so tests,
// fixtures and tools can make the `.gz` files the readers read.

internal import CZlib

/// Gzip compression of bytes in memory.
///
/// ```swift
/// let compressed = try #require(GzipCompression.compress(Array("sku\nA1\n".utf8)))
/// var reader = try RecordReaderFactory.open(.bytes(compressed, name: "items.csv.gz"))
/// ```
public enum GzipCompression {
    /// `bytes` as one gzip member, at zlib's `level` (0 stores, 1 is fastest, 9 smallest;
    /// default 6), or `nil` when zlib cannot (out of memory).
    public static func compress(_ bytes: [UInt8], level: Int = 6) -> [UInt8]? {
        var stream = z_stream()
        let windowBits: Int32 = 15 + 16  // the largest window, with gzip's header and trailer
        guard
            deflateInit2_(
                &stream, Int32(clamping: level), Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return nil }
        defer { deflateEnd(&stream) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 32)
        let written = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = destination.baseAddress
                stream.avail_out = UInt32(destination.count)
                return deflate(&stream, Z_FINISH) == Z_STREAM_END ? destination.count - Int(stream.avail_out) : nil
            }
        }
        return written.map { Array(output[0..<$0]) }
    }
}
