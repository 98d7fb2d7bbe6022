// Builds test stores from names: each object is inserted the first time its entity and name are
// asked for, and the same object is given back after (a member listed twice is one object).
import GraphStore

/// The objects of one context, each inserted once per entity and name.
final class NamedObjects {
    private let context: ObjectContext
    private var objects: [String: ManagedObject] = [:]

    init(_ context: ObjectContext) {
        self.context = context
    }

    /// The object of `entity` whose `attribute` is `value`, inserted with it the first time.
    func object(_ entity: String, _ attribute: String, _ value: String) throws -> ManagedObject {
        let name = entity + "\u{0}" + value
        if let found = objects[name] { return found }
        let inserted = try context.insert(entity)
        try inserted.set(attribute, value)
        objects[name] = inserted
        return inserted
    }
}
