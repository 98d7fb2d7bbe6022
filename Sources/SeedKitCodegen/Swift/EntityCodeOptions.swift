// What the model says about an entity's generated code, read from its userInfo: whether to
// generate it at all (`seedkit.codegen`) and the Swift type's name (`seedkit.typeName`).
// docs/CodeGeneration.md lists the keys; they are annotations, so they never change the model's hash.
import GraphStore

/// How one entity's code is generated, from the entity's `userInfo`.
///
/// ```yaml
/// Location:
///   userInfo: {seedkit.codegen: manual}        # no code: the app writes `struct Location: EntityObject`
/// Item:
///   userInfo: {seedkit.typeName: CatalogItem}   # the Swift type is CatalogItem
/// ```
public struct EntityCodeOptions: Sendable, Hashable {
    /// The userInfo key that turns generation off for an entity: `seedkit.codegen: manual`.
    public static let codegenKey = "seedkit.codegen"
    /// The userInfo key that names the entity's Swift type: `seedkit.typeName: CatalogItem`.
    public static let typeNameKey = "seedkit.typeName"

    /// Whether code is generated for the entity (false for `seedkit.codegen: manual`).
    public var isGenerated: Bool
    /// The name of the entity's Swift type (the entity's name unless `seedkit.typeName` says otherwise).
    public var typeName: String

    /// The options `entity`'s userInfo gives.
    ///
    /// - Throws: ``CodegenError`` for a `seedkit.codegen` value other than `class` or `manual`,
    ///   or a `seedkit.typeName` that is not a Swift identifier.
    public init(_ entity: ModelEntity) throws(CodegenError) {
        switch entity.userInfo[Self.codegenKey] {
        case nil, "class": isGenerated = true
        case "manual": isGenerated = false
        case let other?:
            throw CodegenError(
                "\(entity.name): userInfo \(Self.codegenKey) must be class or manual, not '\(other)'")
        }
        typeName = entity.userInfo[Self.typeNameKey] ?? entity.name
        guard SwiftNames.isTypeName(typeName) else {
            throw CodegenError("\(entity.name): '\(typeName)' cannot name a Swift type")
        }
    }
}

/// A model the generator cannot write code for, with every reason.
public struct CodegenError: Error, Sendable, CustomStringConvertible {
    /// The reasons, one per problem.
    public var problems: [String]

    /// An error with one problem.
    public init(_ problem: String) {
        self.problems = [problem]
    }

    /// An error with several problems.
    public init(problems: [String]) {
        self.problems = problems
    }

    /// `cannot generate code (2 problems): …; …`.
    public var description: String {
        let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
        return "cannot generate code (\(count)): " + problems.joined(separator: "; ")
    }
}
