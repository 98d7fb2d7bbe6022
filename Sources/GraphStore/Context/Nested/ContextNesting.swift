// Where a context stands among parent and child contexts: the link to its parent (none for a
// context of the store), the ledger of permanent IDs its family shares, and its children in the
// same isolation domain, which it tells when IDs became permanent.
// Invariants: a child holds its parent (through the link) and the family's ledger; a parent holds
// its children only weakly, so dropping a child discards it; the ledger lives while any child of
// its root does.

/// A context's place among parent and child contexts.
struct ContextNesting {
    /// How to reach the parent; nil for a context that saves to the store.
    let parent: (any ParentContextLink)?
    /// The family's ledger, held by a child (nil for a root context).
    let ledger: PermanentIDLedger?
    /// A root context's ledger, while any of its descendants holds it.
    weak var childrenLedger: PermanentIDLedger?
    /// The ledger generation this context last adopted IDs from.
    var adoptedGeneration = 0
    /// Children made with `newChildContext()`, which share this context's isolation domain.
    private var sameDomainChildren: [WeakChild] = []

    private struct WeakChild {
        weak var context: ObjectContext?
    }

    /// A root context's place: no parent, no ledger until its first child.
    init() {
        parent = nil
        ledger = nil
    }

    /// A child's place: `parent` to reach its parent, `ledger` shared with its family.
    init(parent: any ParentContextLink, ledger: PermanentIDLedger) {
        self.parent = parent
        self.ledger = ledger
    }

    /// Remembers a child that shares the context's isolation domain.
    mutating func add(sameDomainChild child: ObjectContext) {
        sameDomainChildren.removeAll { $0.context == nil }
        sameDomainChildren.append(WeakChild(context: child))
    }

    /// The children that share the context's isolation domain and are still alive.
    var liveSameDomainChildren: [ObjectContext] {
        sameDomainChildren.compactMap(\.context)
    }
}
