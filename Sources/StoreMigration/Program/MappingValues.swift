// The values of a mapping model's attribute mappings as SQL over the source row `s`: a blank
// mapping reads the source attribute of the same name (or the one the destination attribute's
// renaming identifier names), else gives the destination default; `$source.a` reads a column,
// `$source.owner.name` follows to-ones hop by hop; a constant is coerced to the destination type
// (a failure is an error before writing); `FUNCTION($entityPolicy, …)` is left to the policy.
// Anything else is an unsupported expression. Values of another type than the destination's are
// converted where SQLite converts them without loss of meaning (numbers between numeric types,
// anything but bytes to text); others are refused.
import Foundation
import GraphStore
import ModelFiles

/// What an attribute mapping gives its attribute.
enum MappingAttributeValue {
    /// A column value (nil: the attribute stays nil).
    case column(ColumnValue?)
    /// A policy function, called per source object.
    case function(PolicyFunction)
}

/// Compiles attribute mapping expressions.
struct MappingValues {
    let source: StoreLayout
    let destination: StoreLayout

    /// The value of `attribute` (of the destination entity) for the source entity `entity`
    /// (nil for an Add mapping) under `mapping` (nil: the attribute is not mapped).
    func value(of attribute: ModelAttribute, from entity: ModelEntity?, mapping: PropertyMapping?)
        throws(MappingProblem)
        -> MappingAttributeValue
    {
        let fallback: ColumnValue? = attribute.declaration.defaultValue.map(ColumnValue.constant)
        guard let mapping, let entity else { return .column(fallback) }
        guard let expression = mapping.valueExpression else {
            let name =
                entity.attribute(named: attribute.name) != nil
                ? attribute.name : attribute.declaration.renamingIdentifier
            guard let name, let old = entity.attribute(named: name), !old.isTransient else { return .column(fallback) }
            return .column(try read(old, through: [], as: attribute))
        }
        switch expression {
        case .keyPath(variable: "source", let path):
            let (hops, old) = try resolve(path, in: entity)
            return .column(try read(old, through: hops, as: attribute))
        case .constant(let constant):
            return .column(try Self.coerce(constant, to: attribute.type).map(ColumnValue.constant))
        case .function(target: .variable("entityPolicy"), let selector, let arguments):
            return .function(
                PolicyFunction(
                    attribute: attribute, selector: selector,
                    arguments: try arguments.map { argument throws(MappingProblem) in
                        switch argument {
                        case .constant(let constant): return .constant(try Self.coerce(constant, to: nil))
                        case .keyPath(variable: "source", let path)
                        where path.count == 1 && entity.attribute(named: path[0]) != nil:
                            return .sourceAttribute(path[0])
                        default: throw .unsupported(argument.format)
                        }
                    }))
        default:
            throw .unsupported(expression.format)
        }
    }

    /// The to-one hops and the attribute a `$source` key path names in `entity`.
    private func resolve(_ path: [String], in entity: ModelEntity) throws(MappingProblem) -> (
        [ModelRelationship], ModelAttribute
    ) {
        var current = entity
        var hops: [ModelRelationship] = []
        for (position, name) in path.enumerated() {
            if position == path.count - 1, let attribute = current.attribute(named: name), !attribute.isTransient {
                return (hops, attribute)
            }
            guard let relationship = current.relationship(named: name), !relationship.isToMany,
                case .foreignKey = source.storage(of: relationship)
            else {
                throw .invalid(
                    "the key path $source.\(path.joined(separator: ".")) does not lead through to-ones of \(entity.name) to an attribute"
                )
            }
            hops.append(relationship)
            current = source.model.destination(of: relationship)
        }
        throw .invalid("the key path $source.\(path.joined(separator: ".")) ends at a relationship, not an attribute")
    }

    /// SQL reading `attribute` (source) through `hops` from `s`, as `target` (destination) stores it.
    private func read(_ attribute: ModelAttribute, through hops: [ModelRelationship], as target: ModelAttribute)
        throws(MappingProblem) -> ColumnValue
    {
        let quote = SQLiteIdentifier.quote
        var key: String?
        for (index, hop) in hops.enumerated() {
            guard case .foreignKey(let column) = source.storage(of: hop) else { break }
            if let previous = key {
                let table = source.table(of: source.model.destination(of: hops[index - 1]))
                key =
                    "(SELECT h\(index).\(quote(column)) FROM src.\(quote(table)) AS h\(index)"
                    + " WHERE h\(index).\(source.keyColumn) = \(previous))"
            } else {
                key = "s.\(quote(column))"
            }
        }
        var value = "s.\(quote(source.column(of: attribute)))"
        if let key, let last = hops.last {
            let table = source.table(of: source.model.destination(of: last))
            value =
                "(SELECT h.\(quote(source.column(of: attribute))) FROM src.\(quote(table)) AS h"
                + " WHERE h.\(source.keyColumn) = \(key))"
        }
        let converted = destination.values.sqlExpression(converting: value, type: attribute.type, from: source.values)
        return .sql(try Self.cast(converted, from: attribute.type, to: target.type))
    }

    /// `sql` (a value of `type`) as a value of `target`: unchanged when both are stored alike,
    /// cast between numbers, or to text; refused otherwise.
    static func cast(_ sql: String, from type: AttributeType, to target: AttributeType) throws(MappingProblem) -> String
    {
        if type == target || type.sqlType == target.sqlType && type != .date && target != .date { return sql }
        let numeric: Set<AttributeType> = [.integer16, .integer32, .integer64, .boolean, .double, .float]
        if numeric.contains(type) && numeric.contains(target) {
            return "CAST(\(sql) AS \(target.sqlType))"
        }
        if target == .string && type != .binary && type != .transformable && type != .uuid {
            return "CAST(\(sql) AS TEXT)"
        }
        throw .invalid("a \(type.rawValue) value cannot become \(target.rawValue)")
    }

    /// A constant as a value of `type` (nil: as it is).
    static func coerce(_ constant: MappingConstant, to type: AttributeType?) throws(MappingProblem) -> AttributeValue? {
        let value: AttributeValue
        switch constant {
        case .null: return nil
        case .string(let text): value = .string(text)
        case .integer(let number): value = .integer(number)
        case .real(let number): value = .double(number)
        case .boolean(let flag): value = .boolean(flag)
        }
        guard let type else { return value }
        let coerced: AttributeValue?
        switch (value, type) {
        case (_, _) where value.matches(type): coerced = value
        case (.integer(let number), .double), (.integer(let number), .float): coerced = .double(Double(number))
        case (.integer(let number), .decimal): coerced = .decimal(Decimal(number))
        case (.integer(let number), .boolean): coerced = number == 0 || number == 1 ? .boolean(number == 1) : nil
        case (.boolean(let flag), _) where type.isInteger: coerced = .integer(flag ? 1 : 0)
        case (.double(let number), _) where type.isInteger:
            coerced = number.rounded() == number && abs(number) < 9e18 ? .integer(Int64(number)) : nil
        case (.double(let number), .decimal): coerced = .decimal(Decimal(number))
        case (.string(let text), .uuid): coerced = UUID(uuidString: text).map(AttributeValue.uuid)
        case (.string(let text), .uri): coerced = URL(string: text).map(AttributeValue.uri)
        case (.string(let text), .decimal): coerced = Decimal(string: text).map(AttributeValue.decimal)
        case (.integer(let number), .string): coerced = .string(String(number))
        case (.double(let number), .string): coerced = .string(String(number))
        default: coerced = nil
        }
        guard let coerced else { throw .invalid("the constant \(constant.format) is not a \(type.rawValue)") }
        if let range = type.integerRange, case .integer(let number) = coerced, !range.contains(number) {
            throw .invalid("the constant \(constant.format) is out of the range of \(type.rawValue)")
        }
        return coerced
    }
}

/// A problem with one property mapping, before it gets its file, mapping and property.
enum MappingProblem: Error {
    /// The mapping does not fit the models.
    case invalid(String)
    /// An expression SeedKit cannot run (its format text).
    case unsupported(String)
}
