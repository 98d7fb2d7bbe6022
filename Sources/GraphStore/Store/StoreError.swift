// Errors opening, creating or reading a store, each naming the store and what is wrong.

/// Why a store could not be opened, created or read.
///
/// ```swift
/// do { _ = try PersistentStore.open(at: url, model: model) }
/// catch let error as StoreError { print(error) }   // "App.sqlite: incompatible model: Item.price: …"
/// ```
public struct StoreError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// No file at the path, and creating one was not allowed.
        case fileNotFound
        /// The file is not a SeedKit store (no metadata table, or not SQLite).
        case notAStore
        /// The store was written by a newer format version.
        case unsupportedFormat(String)
        /// The model given differs from the store's; each line names a difference.
        case incompatibleModel([String])
        /// A new store needs a model.
        case missingModel
        /// The store's embedded model could not be read.
        case unreadableModel(String)
        /// A write was attempted on a read-only store.
        case readOnly
        /// The file is a SQLite database but damaged or crafted: a page that does not hold what
        /// it should, a truncated file, an impossible header, a schema that does not parse, a
        /// write-ahead log that does not belong to it; SQLite's reason.
        case damaged(String)
        /// The store's schema holds what SeedKit does not run for a store from elsewhere (a view,
        /// a virtual table, a generated column, a computed DEFAULT, a trigger or constraint that
        /// calls a function SQLite does not deem harmless); each line names one (docs/Security.md).
        case unsafeSchema([String])
        /// SQLite reported an error.
        case sqlite(SQLiteError)
        /// A file of the store could not be created or removed; the system's reason.
        case fileSystem(String)
    }

    /// What went wrong.
    public var kind: Kind
    /// The store's path (or in-memory name).
    public var path: String

    /// An error of `kind` about the store at `path`.
    public init(_ kind: Kind, path: String) {
        self.kind = kind
        self.path = path
    }

    /// The error SQLite's `error` is about the store at `path`: ``Kind/damaged(_:)`` for a
    /// damaged page or header (a file that is not SQLite at all is ``Kind/notAStore``),
    /// ``Kind/sqlite(_:)`` for anything else.
    package init(_ error: SQLiteError, path: String) {
        if error.isCorrupt {
            self.init(.damaged(error.message), path: path)
        } else if error.isNotADatabase {
            let header = StoreFileHeader(path: path)
            self.init(
                header?.isSQLite == true ? .damaged("impossible header: \(error.message)") : .notAStore, path: path)
        } else {
            self.init(.sqlite(error), path: path)
        }
    }

    /// One line: the store and the reason.
    public var description: String {
        let reason: String
        switch kind {
        case .fileNotFound: reason = "no store at this path"
        case .notAStore: reason = "not a SeedKit store"
        case .unsupportedFormat(let version): reason = "store format \(version) is newer than this SeedKit supports"
        case .incompatibleModel(let differences):
            reason =
                "incompatible model: " + differences.prefix(10).joined(separator: "; ")
                + (differences.count > 10 ? "; … (\(differences.count) differences)" : "")
        case .missingModel: reason = "a new store needs a model"
        case .unreadableModel(let message): reason = "the store's model cannot be read: \(message)"
        case .readOnly: reason = "the store is open read-only"
        case .damaged(let message): reason = "the store file is damaged: \(message)"
        case .unsafeSchema(let objects):
            reason = "the store's schema holds what SeedKit does not run: " + objects.joined(separator: "; ")
        case .sqlite(let error): reason = error.description
        case .fileSystem(let message): reason = message
        }
        return "\(path): \(reason)"
    }
}
