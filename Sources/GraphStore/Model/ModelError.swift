// The error a model that fails validation produces: every problem found, not just the first.

/// One problem found in a model: where it is and what is wrong.
public struct ModelProblem: Sendable, Hashable, CustomStringConvertible {
    /// The entity the problem is in, if any.
    public var entity: String?
    /// The attribute, relationship or constraint the problem is in, if any.
    public var property: String?
    /// What is wrong.
    public var message: String

    /// A problem in `entity.property` described by `message`.
    public init(entity: String? = nil, property: String? = nil, message: String) {
        self.entity = entity
        self.property = property
        self.message = message
    }

    /// `Entity.property: message`, or as much of it as is known.
    public var description: String {
        switch (entity, property) {
        case (let entity?, let property?): "\(entity).\(property): \(message)"
        case (let entity?, nil): "\(entity): \(message)"
        default: message
        }
    }
}

/// A model that cannot be used, with every problem found in it.
///
/// ```swift
/// do { _ = try ObjectModel(name: "M", entities: entities) }
/// catch let error as ModelError { print(error.problems.map(\.description)) }
/// ```
public struct ModelError: Error, Sendable, CustomStringConvertible {
    /// The model's name, or the file it came from.
    public var source: String
    /// Every problem found, in a stable order.
    public var problems: [ModelProblem]

    /// An error for `source` listing `problems`.
    public init(source: String, problems: [ModelProblem]) {
        self.source = source
        self.problems = problems
    }

    /// One line per problem, after a line naming the model.
    public var description: String {
        let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
        return "invalid model \(source) (\(count)): " + problems.map(\.description).joined(separator: "; ")
    }
}
