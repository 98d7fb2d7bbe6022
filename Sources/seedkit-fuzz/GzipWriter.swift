// GzipWriter: compresses fuzz inputs into one gzip member with zlib, so the readers' gzip
// path is fuzzed with the same documents as the plain one.

import CZlib

enum GzipWriter {
    /// `bytes` as a gzip member (default compression level).
    static func compress(_ bytes: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        guard
            deflateInit2_(
                &stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return bytes }
        defer { deflateEnd(&stream) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 32)
        let written = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = destination.baseAddress
                stream.avail_out = UInt32(destination.count)
                return deflate(&stream, Z_FINISH) == Z_STREAM_END ? destination.count - Int(stream.avail_out) : -1
            }
        }
        return written < 0 ? bytes : Array(output[0..<written])
    }
}
