// ArchivedValue and ArchivedObject: what a keyed archive resolves into — objects with their class
// and fields, UIDs replaced by what they name, `$null` as null — so that decoders of archived
// classes (such as NSExpression) read fields by name without handling UIDs.
import Foundation

/// A value of a resolved `NSKeyedArchiver` archive.
public indirect enum ArchivedValue: Sendable, Hashable {
    /// `nil` (a UID naming `$null`).
    case null
    /// An archived object.
    case object(ArchivedObject)
    /// A plain array of an object's field (such as `NS.objects`), its members resolved.
    case array([ArchivedValue])
    /// A plain value: string, integer, real, boolean, date or data (archived strings and numbers
    /// are stored as plain values).
    case scalar(PropertyListValue)

    /// The object, if this is one.
    public var objectValue: ArchivedObject? {
        if case .object(let object) = self { object } else { nil }
    }

    /// The string, if this is a plain string.
    public var stringValue: String? {
        if case .scalar(.string(let string)) = self { string } else { nil }
    }

    /// The members of a plain array, or of an archived `NSArray`, `NSMutableArray`, `NSSet` or
    /// `NSMutableSet` (its `NS.objects`); nil for anything else.
    public var arrayElements: [ArchivedValue]? {
        switch self {
        case .array(let elements):
            return elements
        case .object(let object) where object.isKind(of: "NSArray") || object.isKind(of: "NSSet"):
            if case .array(let elements)? = object["NS.objects"] { return elements }
            return nil
        default:
            return nil
        }
    }
}

/// An object of a keyed archive: its class and its fields.
public struct ArchivedObject: Sendable, Hashable {
    /// The object's index in the archive's `$objects` (for messages).
    public var index: Int
    /// The class name (`$classname`).
    public var className: String
    /// The class and its superclasses (`$classes`), most specific first; may be empty.
    public var classHierarchy: [String]
    /// The fields by key, resolved.
    public var fields: [String: ArchivedValue]

    /// An object with these parts.
    public init(index: Int, className: String, classHierarchy: [String], fields: [String: ArchivedValue]) {
        self.index = index
        self.className = className
        self.classHierarchy = classHierarchy
        self.fields = fields
    }

    /// The field called `key`, if present.
    public subscript(key: String) -> ArchivedValue? { fields[key] }

    /// Whether the object's class is `name` or has `name` among its superclasses.
    public func isKind(of name: String) -> Bool {
        className == name || classHierarchy.contains(name)
    }
}
