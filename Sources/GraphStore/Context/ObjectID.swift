// Object identity that can cross contexts and threads: store, entity and primary key.
// Invariants: a permanent ID has a positive key (the row's `pk`); a temporary ID (an unsaved
// object) has a negative key unique in the process; equal IDs name the same object.
import Foundation
import Synchronization

/// The identity of an object: `Sendable` and hashable, so it can be passed between contexts
/// (objects themselves never leave their context).
///
/// ```swift
/// let id = item.objectID                       // in one context
/// let same = try other.existingObject(with: id) // in another
/// let text = id.uriRepresentation              // "x-seedkit://<store UUID>/3/p42"
/// ```
public struct ObjectID: Sendable, Hashable, CustomStringConvertible {
    /// The UUID of the store the object lives in.
    public let storeUUID: UUID
    /// The number of the object's entity in its store (the store layout's entity number).
    public let entityID: Int64
    /// The row's primary key when permanent; a negative number when temporary.
    public let key: Int64

    /// An ID for the row `key` of the entity `entityID` in the store `storeUUID`.
    public init(storeUUID: UUID, entityID: Int64, key: Int64) {
        self.storeUUID = storeUUID
        self.entityID = entityID
        self.key = key
    }

    /// Hashes the entity and key only: IDs that meet in one dictionary nearly always come from
    /// one store, and hashing the UUID too would cost more than the rare collision (`==` still
    /// compares the store).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(entityID)
        hasher.combine(key)
    }

    /// Whether the object has not been saved yet (its ID changes at save).
    public var isTemporary: Bool { key < 0 }

    /// The row's primary key, or nil for a temporary ID.
    public var primaryKey: Int64? { key > 0 ? key : nil }

    /// The URI form: `x-seedkit://<store UUID>/<entity ID>/p<pk>` (`t<n>` for temporary IDs).
    public var uriRepresentation: String {
        "x-seedkit://\(storeUUID.uuidString)/\(entityID)/" + (isTemporary ? "t\(-key)" : "p\(key)")
    }

    /// Parses a URI made by ``uriRepresentation``; nil when `uri` is not one.
    public init?(uriRepresentation uri: String) {
        let prefix = "x-seedkit://"
        guard uri.hasPrefix(prefix) else { return nil }
        let parts = uri.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, let uuid = UUID(uuidString: String(parts[0])),
            let entityID = Int64(parts[1]), entityID > 0,
            let kind = parts[2].first, let number = Int64(parts[2].dropFirst()), number > 0
        else { return nil }
        switch kind {
        case "p": self.init(storeUUID: uuid, entityID: entityID, key: number)
        case "t": self.init(storeUUID: uuid, entityID: entityID, key: -number)
        default: return nil
        }
    }

    /// The URI form.
    public var description: String { uriRepresentation }

    /// A new temporary ID, unique in this process.
    static func temporary(storeUUID: UUID, entityID: Int64) -> ObjectID {
        ObjectID(storeUUID: storeUUID, entityID: entityID, key: -temporaryCounter.add(1, ordering: .relaxed).newValue)
    }

    private static let temporaryCounter = Atomic<Int64>(0)
}
