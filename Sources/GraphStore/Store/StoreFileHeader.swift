// The first bytes of a store's file, read without SQLite: whether it is a SQLite database at all
// (its 16-byte magic), its page size and whether it is in write-ahead-log mode (its file format
// bytes), so that a read-only open can choose how to open it (StoreReadAccess), a -wal beside it
// can be checked (WriteAheadLogCheck) and a failure can say whether the file is damaged or not a
// database.
// Invariant: reading never writes, locks or creates anything; a file that cannot be read has no
// header (nil).
import Foundation

/// What the first 100 bytes of a database file say.
///
/// ```swift
/// if let header = StoreFileHeader(path: "Seed.sqlite"), header.isSQLite { … }
/// ```
package struct StoreFileHeader {
    /// `SQLite format 3` and a zero byte: the first 16 bytes of every SQLite 3 database.
    private static let magic = Array("SQLite format 3\0".utf8)
    /// The bytes read (at most 100).
    private let bytes: [UInt8]

    /// The header of the file at `path`; nil when it cannot be opened or read.
    package init?(path: String) {
        guard let file = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? file.close() }
        guard let data = try? file.read(upToCount: 100) else { return nil }
        bytes = Array(data)
    }

    /// Whether the file starts with SQLite's magic.
    package var isSQLite: Bool {
        bytes.starts(with: Self.magic)
    }

    /// The database's page size in bytes (bytes 16 and 17, where 1 means 65536), or nil when the
    /// header is not SQLite's.
    package var pageSize: Int? {
        guard isSQLite, bytes.count >= 18 else { return nil }
        let size = Int(bytes[16]) << 8 | Int(bytes[17])
        return size == 1 ? 65536 : size
    }

    /// Whether the database is in write-ahead-log mode: its write or read format version (bytes
    /// 18 and 19) is 2.
    package var isWriteAheadLog: Bool {
        isSQLite && bytes.count >= 20 && (bytes[18] == 2 || bytes[19] == 2)
    }
}
