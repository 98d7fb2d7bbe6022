// Crash-safe file operations for first launch: a copy that clones the file where the file system
// can (its blocks shared, nothing copied: FICLONE on Linux, clonefile on Apple platforms), else
// copies in chunks in the kernel, reporting progress and able to stop between chunks; fsync and
// installing a finished file with an atomic rename (GraphStore's StoreFiles, which migrations use
// too; here their errors are the loader's).
// Invariants: a destination path only ever holds a complete, synced file (the rename is the
// commit point, and the directory is synced after it); SQLite side files of an absent store are
// removed before a new store is renamed into its place, so a stale WAL is never applied to it.
import Foundation
import GraphStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// File operations that leave either the old state or the complete new one.
enum DurableFile {
    /// Bytes per chunk of a copy (and per progress update).
    static let chunkSize = 8 << 20

    /// Copies `source` to `destination` (created or truncated): a clone where the file system
    /// can, else in chunks; `progress(copied, total, chunk)` runs after each chunk (once for a
    /// clone) and may throw to stop the copy. With `sync`, the copy is fsynced before returning.
    /// On failure the partial destination is removed.
    static func copy(
        from source: String, to destination: String, sync: Bool,
        progress: (_ copied: Int, _ total: Int, _ chunk: Int) throws -> Void
    ) throws {
        #if canImport(Darwin)
            unlink(destination)
            if clonefile(source, destination, 0) == 0 {
                do {
                    if sync { try self.sync(destination) }
                    var status = stat()
                    let total = stat(destination, &status) == 0 ? Int(status.st_size) : 0
                    try progress(total, total, 1)
                    return
                } catch {
                    unlink(destination)
                    throw error
                }
            }
        #endif
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw failure("cannot read", source) }
        defer { close(input) }
        var status = stat()
        guard fstat(input, &status) == 0 else { throw failure("cannot read", source) }
        let total = Int(status.st_size)
        let output = open(destination, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw failure("cannot create", destination) }
        do {
            defer { close(output) }
            if clone(input, into: output) {
                try progress(total, total, 1)
            } else {
                var copied = 0
                var chunk = 0
                while case let count = try copyChunk(
                    from: input, to: output, source: source, destination: destination),
                    count > 0
                {
                    copied += count
                    chunk += 1
                    try progress(copied, total, chunk)
                }
            }
            if sync && fsync(output) != 0 { throw failure("cannot sync", destination) }
        } catch {
            unlink(destination)
            throw error
        }
    }

    /// Makes `output` share `input`'s blocks (Linux `FICLONE`: Btrfs, XFS, …); false where the
    /// file system cannot (ext4, or another platform), and nothing was written.
    private static func clone(_ input: Int32, into output: Int32) -> Bool {
        #if os(Linux)
            let ficlone: UInt = 0x4004_9409  // _IOW(0x94, 9, int), <linux/fs.h>
            return ioctl(output, ficlone, input) == 0
        #else
            return false
        #endif
    }

    #if os(Linux)
        /// `copy_file_range(2)` (glibc 2.27), looked up at run time: the headers Swift imports do
        /// not declare it. It copies in the kernel and shares blocks where the file system can.
        private typealias CopyFileRange =
            @convention(c) (
                Int32, UnsafeMutablePointer<Int64>?, Int32, UnsafeMutablePointer<Int64>?, Int, UInt32
            ) -> Int
        private static let copyFileRange: CopyFileRange? = dlsym(
            UnsafeMutableRawPointer(bitPattern: 0), "copy_file_range"
        ).map { unsafeBitCast($0, to: CopyFileRange.self) }
    #endif

    /// Copies up to one chunk from `input`'s position to `output`'s, in the kernel where it can
    /// (Linux `copy_file_range`, else `sendfile`), else through a buffer; returns the bytes copied
    /// (0 at the end).
    private static func copyChunk(from input: Int32, to output: Int32, source: String, destination: String) throws
        -> Int
    {
        #if os(Linux)
            while let copyFileRange {
                let count = copyFileRange(input, nil, output, nil, chunkSize, 0)
                if count >= 0 { return count }
                if errno == EINTR { continue }
                if errno == EXDEV || errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP { break }
                throw failure("cannot copy \(source) to", destination)
            }
            while true {
                let count = sendfile(output, input, nil, chunkSize)
                if count >= 0 { return count }
                if errno == EINTR { continue }
                if errno == EINVAL || errno == ENOSYS { break }  // not for these files: copy through a buffer
                throw failure("cannot copy \(source) to", destination)
            }
        #endif
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(input, buffer.baseAddress, chunkSize)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw failure("cannot read", source) }
            try writeAll(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), to: output, path: destination)
            return count
        }
    }

    /// Moves the finished file `temporary` to `destination` atomically (after clearing stale
    /// SQLite side files of `destination`) and syncs the directory so the rename survives a
    /// power loss (StoreFiles.install).
    static func install(_ temporary: String, at destination: String) throws {
        try fileSystemErrors { try StoreFiles.install(temporary, at: destination) }
    }

    /// fsyncs the file at `path`.
    static func sync(_ path: String) throws {
        try fileSystemErrors { try StoreFiles.sync(path) }
    }

    /// Runs `body`, reporting a store file error as the loader's file-system error.
    private static func fileSystemErrors(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as StoreError {
            throw SeedLoadError(.fileSystem, error.description)
        }
    }

    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, path: String) throws {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw failure("cannot write", path) }
            offset += written
        }
    }

    /// A file-system error naming the operation, the path and the system's reason.
    private static func failure(_ operation: String, _ path: String) -> SeedLoadError {
        SeedLoadError(.fileSystem, "\(operation) \(path): \(String(cString: strerror(errno)))")
    }
}
