// The first bytes of a store's file, read without SQLite: whether it is a SQLite database at all
// (its 16-byte magic), its page size and whether it is in write-ahead-log mode (its file format
// bytes), so that a read-only open can choose how to open it (StoreReadAccess), a -wal beside it
// can be checked (WriteAheadLogCheck) and a failure can say whether the file is damaged or not a
// database; and the fields no store can have otherwise (a text encoding other than UTF-8, a
// schema format SQLite does not know), refused before SQLite reads the schema.
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

    /// What the header says that no store can say, or nil: a text encoding other than UTF-8
    /// (bytes 56–59: 1; 0 before the first table) — every store is UTF-8, and SQLite would read
    /// its names and text as UTF-16 — or a schema format other than 1 to 4 (bytes 44–47; 0 before
    /// the first table).
    package var impossibility: String? {
        guard isSQLite, bytes.count == 100 else { return nil }
        let encoding = field(at: 56)
        if encoding > 1 {
            let name = [2: "UTF-16le", 3: "UTF-16be"][encoding] ?? "number \(encoding)"
            return "impossible header: text encoding \(name) (a store is UTF-8)"
        }
        let schemaFormat = field(at: 44)
        if schemaFormat > 4 { return "impossible header: schema format \(schemaFormat)" }
        return nil
    }

    /// The big-endian 4-byte field at `offset`.
    private func field(at offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Throws ``StoreError/Kind/damaged(_:)`` when the header of the file at `path` says what
    /// no store can say (``impossibility``).
    package static func check(path: String) throws {
        if let impossibility = StoreFileHeader(path: path)?.impossibility {
            throw StoreError(.damaged(impossibility), path: path)
        }
    }
}
