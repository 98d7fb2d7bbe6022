// Decodes the NSKeyedArchiver archive of an NSExpression (a mapping model's
// `valueexpressiondata`) into a MappingExpression, with SeedKit's own bplist reader and
// keyed-archive resolver: on Linux, Foundation's unarchiver aborts the process on these bytes.
//
// The archived classes, as Xcode writes them: NSVariableExpression (NSVariable, type 2),
// NSConstantValueExpression (NSConstantValue, type 0), NSFunctionExpression and its subclass
// NSKeyPathExpression (NSOperand, NSSelectorName, NSArguments, type 4), NSKeyPathSpecifierExpression
// (NSKeyPath, type 10) and NSArray/NSMutableArray (NS.objects). `$source.abc` is archived as
// `valueForKeyPath:` applied to `$source` with one key-path specifier, and decodes to a key path.
// Any other class is an unsupported expression, named in the error.
// Limits: at most 1 MiB per archive, 10,000 objects, depth 64 (PropertyListLimits).
import Foundation
import PropertyLists

/// Why an archived expression could not be decoded.
public enum MappingExpressionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are not a readable keyed archive.
    case archive(PropertyListError)
    /// An expression class SeedKit does not decode (class name, `$objects` index).
    case unsupportedExpression(className: String, object: Int)
    /// An object shaped otherwise than Xcode archives expressions (what is wrong, `$objects` index).
    case malformed(String, object: Int)

    /// The problem in words.
    public var description: String {
        switch self {
        case .archive(let error): "the archived expression cannot be read: \(error)"
        case .unsupportedExpression(let className, let object):
            "unsupported expression: \(className) ($objects[\(object)])"
        case .malformed(let what, let object): "malformed archived expression: \(what) ($objects[\(object)])"
        }
    }
}

extension MappingExpression {
    /// The limits archived expressions are read with: 1 MiB, 10,000 objects, depth 64.
    public static let archiveLimits = PropertyListLimits(maxInputSize: 1 << 20, maxObjects: 10_000, maxDepth: 64)

    /// Decodes the NSKeyedArchiver archive of an NSExpression.
    /// - Throws: ``MappingExpressionError``.
    public init(archive data: Data) throws(MappingExpressionError) {
        let root: ArchivedValue
        do {
            root = try KeyedArchive(data, limits: Self.archiveLimits).root()
        } catch {
            throw .archive(error)
        }
        self = try Self.decode(root, owner: 0)
    }

    /// The expression `value` holds; `owner` is the `$objects` index that refers to it.
    private static func decode(_ value: ArchivedValue, owner: Int) throws(MappingExpressionError) -> MappingExpression {
        guard let object = value.objectValue else {
            throw .malformed("an expression is expected, not \(summary(of: value))", object: owner)
        }
        switch object.className {
        case "NSVariableExpression":
            try expectType(2, of: object)
            return .variable(try string("NSVariable", of: object))
        case "NSConstantValueExpression":
            try expectType(0, of: object)
            return .constant(try constant(object))
        case "NSFunctionExpression", "NSKeyPathExpression":
            try expectType(4, of: object)
            return try function(object)
        default:
            throw .unsupportedExpression(className: object.className, object: object.index)
        }
    }

    /// A function expression; `valueForKeyPath:` on a variable or key path with one key-path
    /// specifier is a key path.
    private static func function(_ object: ArchivedObject) throws(MappingExpressionError) -> MappingExpression {
        let selector = try string("NSSelectorName", of: object)
        guard let operandValue = object["NSOperand"] else {
            throw .malformed("\(object.className) has no NSOperand", object: object.index)
        }
        let argumentValues: [ArchivedValue]
        switch object["NSArguments"] {
        case nil, .null?: argumentValues = []
        case let arguments?:
            guard let elements = arguments.arrayElements else {
                throw .malformed("NSArguments is \(summary(of: arguments)), not an array", object: object.index)
            }
            argumentValues = elements
        }
        if selector == "valueForKeyPath:", argumentValues.count == 1,
            let specifier = argumentValues[0].objectValue, specifier.className == "NSKeyPathSpecifierExpression"
        {
            return try keyPath(specifier, appliedTo: try decode(operandValue, owner: object.index))
        }
        let target = try decode(operandValue, owner: object.index)
        var arguments: [MappingExpression] = []
        for argument in argumentValues { arguments.append(try decode(argument, owner: object.index)) }
        return .function(target: target, selector: selector, arguments: arguments)
    }

    /// The key path of `specifier` applied to `operand` (a variable, or a key path it extends).
    private static func keyPath(_ specifier: ArchivedObject, appliedTo operand: MappingExpression)
        throws(MappingExpressionError) -> MappingExpression
    {
        try expectType(10, of: specifier)
        let path = try string("NSKeyPath", of: specifier)
        let components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !components.contains(where: \.isEmpty) else {
            throw .malformed("the key path '\(path)' has an empty component", object: specifier.index)
        }
        switch operand {
        case .variable(let variable): return .keyPath(variable: variable, components)
        case .keyPath(let variable, let prefix): return .keyPath(variable: variable, prefix + components)
        default: throw .unsupportedExpression(className: "a key path on \(operand.format)", object: specifier.index)
        }
    }

    /// The constant of an NSConstantValueExpression (absent or `$null`: nil).
    private static func constant(_ object: ArchivedObject) throws(MappingExpressionError) -> MappingConstant {
        switch object["NSConstantValue"] {
        case nil, .null?: return .null
        case .scalar(.string(let string))?: return .string(string)
        case .scalar(.integer(let integer))?: return .integer(integer)
        case .scalar(.real(let real))?: return .real(real)
        case .scalar(.boolean(let boolean))?: return .boolean(boolean)
        case let other?:
            let held = other.objectValue?.className ?? summary(of: other)
            throw .unsupportedExpression(className: "NSConstantValueExpression holding \(held)", object: object.index)
        }
    }

    /// The string field `key` of `object`.
    private static func string(_ key: String, of object: ArchivedObject) throws(MappingExpressionError) -> String {
        guard let value = object[key]?.stringValue else {
            throw .malformed("\(object.className) has no \(key) string", object: object.index)
        }
        return value
    }

    /// Checks `NSExpressionType`, when present, against the class's type.
    private static func expectType(_ type: Int64, of object: ArchivedObject) throws(MappingExpressionError) {
        guard let field = object["NSExpressionType"] else { return }
        guard field == .scalar(.integer(type)) else {
            throw .malformed(
                "\(object.className) has NSExpressionType \(summary(of: field)), not \(type)", object: object.index)
        }
    }

    /// A short description of an archived value, for messages.
    private static func summary(of value: ArchivedValue) -> String {
        switch value {
        case .null: "nil"
        case .object(let object): "an \(object.className)"
        case .array: "an array"
        case .scalar(.integer(let integer)): String(integer)
        case .scalar(let scalar): "a \(scalar.kind)"
        }
    }
}
