// ExpressionArchive: builds NSKeyedArchiver archives of NSExpressions with SeedKit's writer, in
// the shapes Xcode writes (class descriptions with $classes, NSExpressionType, NSArguments as an
// NSArray of expressions, `$source.x` as valueForKeyPath: with a key-path specifier), since
// Apple's archiver cannot run here.
import Foundation
import PropertyLists

/// An archive under construction: `$objects` and one class description per class.
struct ExpressionArchive {
    private(set) var objects: [PropertyListValue] = ["$null"]
    private var classes: [String: UInt64] = [:]

    static let hierarchies: [String: [String]] = [
        "NSVariableExpression": ["NSVariableExpression", "NSExpression", "NSObject"],
        "NSConstantValueExpression": ["NSConstantValueExpression", "NSExpression", "NSObject"],
        "NSFunctionExpression": ["NSFunctionExpression", "NSExpression", "NSObject"],
        "NSKeyPathExpression": ["NSKeyPathExpression", "NSFunctionExpression", "NSExpression", "NSObject"],
        "NSKeyPathSpecifierExpression": ["NSKeyPathSpecifierExpression", "NSExpression", "NSObject"],
        "NSArray": ["NSArray", "NSObject"],
        "NSMutableArray": ["NSMutableArray", "NSArray", "NSObject"],
    ]

    /// Adds a plain value; returns its UID.
    mutating func add(_ value: PropertyListValue) -> PropertyListValue {
        objects.append(value)
        return .uid(UInt64(objects.count - 1))
    }

    /// Adds an object of `className` with `fields`; returns its UID.
    mutating func object(_ className: String, _ fields: [(String, PropertyListValue)]) -> PropertyListValue {
        let index = objects.count
        objects.append([:])
        let classUID = classUID(className)
        objects[index] = .dictionary(PropertyListDictionary(fields + [("$class", classUID)]))
        return .uid(UInt64(index))
    }

    private mutating func classUID(_ name: String) -> PropertyListValue {
        if let index = classes[name] { return .uid(index) }
        let hierarchy = Self.hierarchies[name] ?? [name, "NSExpression", "NSObject"]
        let uid = add(["$classname": .string(name), "$classes": .array(hierarchy.map { .string($0) })])
        classes[name] = uid.uidValue
        return uid
    }

    mutating func variable(_ name: String) -> PropertyListValue {
        let nameUID = add(.string(name))
        return object("NSVariableExpression", [("NSVariable", nameUID), ("NSExpressionType", 2)])
    }

    mutating func constant(_ value: PropertyListValue?) -> PropertyListValue {
        guard let value else { return object("NSConstantValueExpression", [("NSExpressionType", 0)]) }
        let valueUID = add(value)
        return object("NSConstantValueExpression", [("NSConstantValue", valueUID), ("NSExpressionType", 0)])
    }

    mutating func array(_ members: [PropertyListValue], className: String = "NSArray") -> PropertyListValue {
        object(className, [("NS.objects", .array(members))])
    }

    mutating func function(
        _ operand: PropertyListValue, _ selector: String, _ arguments: [PropertyListValue],
        className: String = "NSFunctionExpression"
    ) -> PropertyListValue {
        let selectorUID = add(.string(selector))
        let argumentsUID = array(arguments)
        return object(
            className,
            [
                ("NSOperand", operand), ("NSSelectorName", selectorUID), ("NSExpressionType", 4),
                ("NSArguments", argumentsUID),
            ])
    }

    /// `operand.path` as Xcode archives it.
    mutating func keyPath(_ operand: PropertyListValue, _ path: String) -> PropertyListValue {
        let pathUID = add(.string(path))
        let specifier = object("NSKeyPathSpecifierExpression", [("NSKeyPath", pathUID), ("NSExpressionType", 10)])
        let selectorUID = add("valueForKeyPath:")
        let argumentsUID = array([specifier], className: "NSMutableArray")
        return object(
            "NSKeyPathExpression",
            [
                ("NSOperand", operand), ("NSSelectorName", selectorUID), ("NSExpressionType", 4),
                ("NSArguments", argumentsUID),
            ])
    }

    /// The archive with `root` at `$top.root`.
    func data(root: PropertyListValue) -> Data {
        BinaryPropertyListWriter().write([
            "$version": 100_000, "$archiver": "NSKeyedArchiver", "$top": ["root": root], "$objects": .array(objects),
        ])
    }
}
