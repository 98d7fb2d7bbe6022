// Tag, written by hand: the model marks it seedkit.codegen: manual, so the code generation plugin
// leaves it out, and the generated Item refers to this type.
import GraphStore

struct Tag: EntityObject {
    static let entityName = "Tag"
    let object: ManagedObject

    init(unchecked object: ManagedObject) {
        self.object = object
    }

    /// The tag's name.
    var name: String {
        get throws { try object.get("name", as: String.self) ?? "" }
    }
}
