// FileWriter: buffered writes to a file with Glibc, for generating large data sets without
// holding them in memory.

#if canImport(Glibc)
    import Glibc
#endif

/// Appends text to a file through a 1 MiB buffer.
struct FileWriter {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// Whether a write failed (the disk is full, say).
    private var failed = false
    /// Bytes written so far (buffered ones included).
    private(set) var bytesWritten = 0

    /// Creates (or truncates) `path`; `nil` if it cannot be opened.
    init?(path: String) {
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { return nil }
        buffer.reserveCapacity(1 << 20)
    }

    mutating func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        bytesWritten += text.utf8.count
        if buffer.count >= 1 << 20 { flush() }
    }

    mutating func flush() {
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBufferPointer {
                Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset)
            }
            if written <= 0 {
                failed = true
                break
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes and closes the file; whether every byte was written.
    mutating func close() -> Bool {
        flush()
        return Glibc.close(descriptor) == 0 && !failed
    }
}
