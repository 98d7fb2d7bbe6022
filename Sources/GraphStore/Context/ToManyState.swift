// The in-memory state of one to-many relationship of one object.
// Invariants: while `isFault`, `members` holds only members added since the last load and
// `removed` the members removed; once loaded, `members` is the whole relationship (in order for
// ordered relationships) and `removed` is empty; `memberIDs` mirrors `members` exactly.

/// Members of a to-many relationship, loaded or pending (a fault with pending changes).
final class ToManyState {
    /// Whether the members have not been read from the store yet.
    var isFault: Bool
    /// The members (all of them when loaded; only pending additions while a fault).
    private(set) var members: [ManagedObject]
    /// Identities of `members`, for O(1) membership tests.
    private(set) var memberIDs: Set<ObjectIdentifier>
    /// Members removed while a fault, applied when the fault fires.
    private(set) var removed: Set<ObjectIdentifier> = []

    init(loaded members: [ManagedObject]) {
        self.isFault = false
        self.members = members
        self.memberIDs = Set(members.map(ObjectIdentifier.init))
    }

    init(fault: Void) {
        self.isFault = true
        self.members = []
        self.memberIDs = []
    }

    func contains(_ object: ManagedObject) -> Bool {
        memberIDs.contains(ObjectIdentifier(object))
    }

    /// Adds `object` at `index` (the end when nil); returns false when it was already a member.
    @discardableResult
    func add(_ object: ManagedObject, at index: Int? = nil) -> Bool {
        let identity = ObjectIdentifier(object)
        guard memberIDs.insert(identity).inserted else { return false }
        removed.remove(identity)
        if let index {
            members.insert(object, at: index)
        } else {
            members.append(object)
        }
        return true
    }

    /// Removes `object`; returns false when it was not a known member (a fault still records it).
    @discardableResult
    func remove(_ object: ManagedObject) -> Bool {
        let identity = ObjectIdentifier(object)
        if memberIDs.remove(identity) != nil {
            if let position = members.firstIndex(where: { $0 === object }) {
                members.remove(at: position)
            }
            return true
        }
        if isFault { removed.insert(identity) }
        return isFault
    }

    /// Moves the member at `source` to `destination` (loaded ordered relationships only).
    func move(from source: Int, to destination: Int) {
        let object = members.remove(at: source)
        members.insert(object, at: destination)
    }

    /// Puts the members in the order of `arranged`, which holds exactly the same objects (loaded
    /// ordered relationships only).
    func arrange(_ arranged: [ManagedObject]) {
        members = arranged
    }

    /// Fills a fault with the stored members, then applies the pending changes.
    func load(stored: [ManagedObject]) {
        let pending = members
        members = stored.filter { !removed.contains(ObjectIdentifier($0)) }
        memberIDs = Set(members.map(ObjectIdentifier.init))
        removed = []
        isFault = false
        for object in pending {
            add(object)
        }
    }

    /// Drops every member reference (used when breaking reference cycles).
    func clear() {
        members = []
        memberIDs = []
        removed = []
    }
}
