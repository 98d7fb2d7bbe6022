// PropertyListError: why a property list or keyed archive was refused, and where — a byte offset
// in a binary property list, a line and column in an XML one, an object index in a keyed archive.
// Every reader and the resolver throw only this; none of them traps on its input.

/// A property list or keyed archive that could not be read, with the position of the problem.
///
/// `description` reads `byte 1042: the object reference 77 is out of range (12 objects)`.
public struct PropertyListError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where a problem is.
    public enum Position: Sendable, Equatable, CustomStringConvertible {
        /// A byte offset from the start of a binary property list.
        case byte(Int)
        /// A line and column of an XML property list (1-based; column 0 when unknown).
        case line(Int, column: Int)
        /// An object of a keyed archive's `$objects` array, by index.
        case archivedObject(Int)

        /// `byte 12`, `line 3, column 7`, `$objects[5]`.
        public var description: String {
            switch self {
            case .byte(let offset): "byte \(offset)"
            case .line(let line, column: 0): "line \(line)"
            case .line(let line, let column): "line \(line), column \(column)"
            case .archivedObject(let index): "$objects[\(index)]"
            }
        }
    }

    /// What is wrong.
    public enum Reason: Sendable, Equatable {
        /// The input is larger than ``PropertyListLimits/maxInputSize``.
        case inputTooLarge(size: Int, limit: Int)
        /// The input is neither a `bplist00` binary property list nor XML.
        case notAPropertyList
        /// The input ends before the header, an object or the trailer does.
        case truncated(String)
        /// A trailer field is impossible (its name and value in words).
        case invalidTrailer(String)
        /// The trailer declares more objects than ``PropertyListLimits/maxObjects``.
        case tooManyObjects(count: UInt64, limit: Int)
        /// An offset-table entry points outside the object area.
        case offsetOutOfRange(UInt64)
        /// An object reference names no object.
        case referenceOutOfRange(UInt64, objectCount: Int)
        /// A marker byte that no object type has.
        case unknownMarker(UInt8)
        /// An object type that property lists do not hold (null, fill, set, ordered set).
        case unsupportedObject(String)
        /// A count that does not fit in the bytes before the offset table.
        case countTooLarge(UInt64)
        /// An integer outside the 64-bit signed range (or a UID beyond 64 bits).
        case integerOutOfRange
        /// A string whose bytes are not valid in its encoding (which encoding, in words).
        case invalidString(String)
        /// A dictionary key that is not a string (the key's kind).
        case nonStringKey(String)
        /// A dictionary key that appears twice.
        case duplicateKey(String)
        /// An object that contains itself (the object's index).
        case cycle(object: Int)
        /// Nesting deeper than ``PropertyListLimits/maxDepth``.
        case tooDeep(limit: Int)
        /// More values than ``PropertyListLimits/maxValues``, counting each use of a shared object.
        case tooManyValues(limit: Int)
        /// An XML document that is not well-formed, or not a property list (in words).
        case invalidXML(String)
        /// A property list that is not an `NSKeyedArchiver` archive (what is missing or wrong).
        case notAKeyedArchive(String)
        /// A keyed archive's UID that names no object of `$objects`.
        case uidOutOfRange(UInt64, objectCount: Int)
        /// An archived object that is not shaped as `NSKeyedArchiver` writes objects (in words).
        case invalidArchivedObject(String)
    }

    /// What is wrong.
    public var reason: Reason
    /// Where.
    public var position: Position

    /// An error at `position`.
    public init(_ reason: Reason, at position: Position) {
        self.reason = reason
        self.position = position
    }

    /// The reason in words.
    public var message: String {
        switch reason {
        case .inputTooLarge(let size, let limit):
            "the property list is \(size) bytes, more than the limit of \(limit)"
        case .notAPropertyList:
            "not a property list (neither a bplist00 binary property list nor XML)"
        case .truncated(let what):
            "the property list ends inside \(what)"
        case .invalidTrailer(let what):
            "invalid trailer: \(what)"
        case .tooManyObjects(let count, let limit):
            "the property list declares \(count) objects, more than the limit of \(limit)"
        case .offsetOutOfRange(let offset):
            "the object offset \(offset) is outside the object area"
        case .referenceOutOfRange(let reference, let count):
            "the object reference \(reference) is out of range (\(count) objects)"
        case .unknownMarker(let marker):
            "unknown object marker 0x\(String(marker, radix: 16, uppercase: true))"
        case .unsupportedObject(let kind):
            "\(kind) objects are not property-list values"
        case .countTooLarge(let count):
            "the count \(count) does not fit in the bytes before the offset table"
        case .integerOutOfRange:
            "the integer does not fit in 64 bits"
        case .invalidString(let encoding):
            "the string is not valid \(encoding)"
        case .nonStringKey(let kind):
            "a dictionary key is a \(kind), not a string"
        case .duplicateKey(let key):
            "the dictionary key '\(key)' appears twice"
        case .cycle(let object):
            "object \(object) contains itself"
        case .tooDeep(let limit):
            "values are nested deeper than the limit of \(limit)"
        case .tooManyValues(let limit):
            "the property list holds more than the limit of \(limit) values"
        case .invalidXML(let what):
            what
        case .notAKeyedArchive(let what):
            "not an NSKeyedArchiver archive: \(what)"
        case .uidOutOfRange(let uid, let count):
            "the UID \(uid) is out of range (\(count) objects)"
        case .invalidArchivedObject(let what):
            what
        }
    }

    /// `position: message`.
    public var description: String { "\(position): \(message)" }
}
