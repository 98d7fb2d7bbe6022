// Checks objects against the model's rules before a save writes anything: required values,
// numeric ranges, lengths, regular expressions, date ranges, relationship counts, deny rules.
// Invariant: it only reads objects (it may load to-many members to count them).

/// Validates the objects of one save and collects every failure.
struct SaveValidator {
    private var checker = AttributeRuleChecker()

    /// Failures of an inserted or updated object.
    mutating func failures(of object: ManagedObject, in context: ObjectContext) throws -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        func fail(_ key: String?, _ value: AttributeValue?, _ rule: ValidationRule) {
            failures.append(
                ValidationFailure(
                    entity: object.entity.name, objectID: object.objectID, key: key, value: value.map { "\($0)" },
                    rule: rule))
        }
        for attribute in object.entity.attributes {
            let value = try object.value(at: attribute.index)
            for rule in try checker.violations(of: value, attribute: attribute) {
                fail(attribute.name, value, rule)
            }
        }
        for relationship in object.entity.relationships where !relationship.isTransient && !relationship.isToMany {
            guard !relationship.declaration.isOptional else { continue }
            let destination = try context.toOneValue(of: object, relationship)
            if destination == nil || destination?.isDeleted == true { fail(relationship.name, nil, .required) }
        }
        return failures + (try countFailures(of: object, in: context))
    }

    /// Failures of the to-many relationships of `object` against their required, minimum and
    /// maximum counts (deleted members do not count). Saves check these for objects whose row
    /// did not change but whose to-many members did.
    func countFailures(of object: ManagedObject, in context: ObjectContext) throws -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        func fail(_ key: String, _ count: Int?, _ rule: ValidationRule) {
            failures.append(
                ValidationFailure(
                    entity: object.entity.name, objectID: object.objectID, key: key, value: count.map { "\($0)" },
                    rule: rule))
        }
        for relationship in object.entity.relationships where !relationship.isTransient && relationship.isToMany {
            let declaration = relationship.declaration
            guard declaration.minCount > 0 || declaration.maxCount > 0 || !declaration.isOptional else { continue }
            let count = try context.toManyState(of: object, relationship, load: true).members.filter {
                !$0.isDeleted
            }.count
            if count == 0 && !declaration.isOptional {
                fail(relationship.name, nil, .required)
            } else if count < declaration.minCount {
                fail(relationship.name, count, .minimumCount(declaration.minCount))
            }
            if declaration.maxCount > 0 && count > declaration.maxCount {
                fail(relationship.name, count, .maximumCount(declaration.maxCount))
            }
        }
        return failures
    }

    /// Failures of a deleted object: deny rules with remaining destinations.
    func denyFailures(of object: ManagedObject, in context: ObjectContext) throws -> [ValidationFailure] {
        try object.entity.relationships.filter { $0.deleteRule == .deny }.compactMap { relationship in
            let remaining = try context.destinations(of: object, relationship).filter { !$0.isDeleted }
            guard !remaining.isEmpty else { return nil }
            return ValidationFailure(
                entity: object.entity.name, objectID: object.objectID, key: relationship.name,
                value: "\(remaining.count) object\(remaining.count == 1 ? "" : "s")", rule: .deleteDenied)
        }
    }
}
