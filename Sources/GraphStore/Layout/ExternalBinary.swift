// Core Data's marker on the binary values of attributes that allow external storage: the
// stored blob starts with `0x01` and holds the bytes inline, or starts with `0x02` and holds the
// name (an ASCII UUID) of a file in the store's `.<store name>_SUPPORT/_EXTERNAL_DATA/` folder.
// SeedKit writes the inline form only and reads both; a set-based copy converts between marked
// and unmarked values with the `seedkit_binary_recode` SQL function.
// Invariants: a file is read only when the stored name is a UUID (never a path); a value without
// a known marker is returned as it is stored.
import Foundation

/// Marked binary values (docs/CoreDataStores.md "Values").
enum ExternalBinary {
    /// The first byte of a value kept inline.
    static let inlineMarker: UInt8 = 0x01
    /// The first byte of a value kept in a file beside the store.
    static let fileMarker: UInt8 = 0x02
    /// `seedkit_binary_recode(value, sourceMarked, targetMarked, sourceFolder)`: `value` as the
    /// source stores it, re-encoded as the target stores it (NULL stays NULL).
    static let recodeFunction = "seedkit_binary_recode"

    /// The stored form of `data`: the inline marker, then the bytes.
    static func inline(_ data: Data) -> Data {
        var stored = Data(capacity: data.count + 1)
        stored.append(inlineMarker)
        stored.append(data)
        return stored
    }

    /// The bytes a marked stored value stands for; nil when it names a file that `folder` does
    /// not hold (or there is no folder).
    static func value(of stored: Data, folder: String?) -> Data? {
        guard let first = stored.first else { return stored }
        switch first {
        case inlineMarker:
            return Data(stored.dropFirst())
        case fileMarker:
            let name = String(decoding: stored.dropFirst().prefix { $0 != 0 }, as: UTF8.self)
            guard let folder, let uuid = UUID(uuidString: name) else { return nil }
            return FileManager.default.contents(atPath: folder + "/" + uuid.uuidString)
        default:
            return stored
        }
    }

    /// SQL giving `expression` (a binary value as `source` stores it) as `target` stores it.
    static func sqlExpression(converting expression: String, from source: ValueEncoding, to target: ValueEncoding)
        -> String
    {
        let folder = source.externalDataFolder.map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" }
        return "\(recodeFunction)(\(expression), \(source.marksBinary ? 1 : 0), \(target.marksBinary ? 1 : 0), "
            + "\(folder ?? "NULL"))"
    }

    /// Registers ``recodeFunction`` on `connection`.
    static func register(on connection: SQLiteConnection) throws {
        try connection.registerFunction(name: recodeFunction, argumentCount: 4, deterministic: true) { arguments in
            guard !arguments.isNull(0) else { return .null }
            let stored = arguments.withBlob(0) { Data($0) }
            var bytes = stored
            if arguments.int64(1) != 0 {
                let folder = arguments.isNull(3) ? nil : arguments.string(3)
                guard let value = value(of: stored, folder: folder) else {
                    throw ExternalBinaryError(folder: folder)
                }
                bytes = value
            }
            return .blob(Array(arguments.int64(2) != 0 ? inline(bytes) : bytes))
        }
    }
}

/// A marked binary value names a file beside the store that is not there.
struct ExternalBinaryError: Error, CustomStringConvertible {
    /// The folder searched.
    let folder: String?

    var description: String {
        "a binary value is kept in a file beside the store that "
            + (folder.map { "is not in \($0)" } ?? "cannot be found (the store is not a file)")
    }
}
