// KeyedArchive: resolves an NSKeyedArchiver archive — a binary property list with `$archiver`
// = NSKeyedArchiver, `$version` = 100000, `$objects` and `$top` — into ArchivedValues, without
// Foundation's NSKeyedUnarchiver (which on Linux aborts the process on classes it does not know,
// and cannot be trusted with crafted input).
//
// Resolution: a UID names `$objects[uid]`; UID 0 names `$null`, which is nil; an object is a
// dictionary whose `$class` UID names a dictionary with `$classname` (and `$classes`); its other
// keys are fields, whose UIDs and arrays of UIDs are resolved in turn; strings, numbers, data
// and dates in `$objects` are plain values.
// Invariants: the binary property list is read with the same limits; every UID is checked to be
// in range; depth is checked on every step; an object reached again while it is being resolved
// is a cycle (archives with back references are refused); each object is resolved once and each
// use counted against maxValues. Errors name the `$objects` index of the object at fault.
import Foundation

/// An `NSKeyedArchiver` archive, checked and ready to resolve.
///
/// ```swift
/// let root = try KeyedArchive(data).root()
/// root.objectValue?.className           // "NSKeyPathExpression"
/// root.objectValue?["NSSelectorName"]   // .scalar(.string("valueForKeyPath:"))
/// ```
public struct KeyedArchive: Sendable {
    /// The archive's `$objects`.
    public let objects: [PropertyListValue]
    /// The archive's `$top` dictionary (the roots, by key; `root` for `archivedData(withRootObject:)`).
    public let top: PropertyListDictionary
    /// The bounds resolution stays within.
    public let limits: PropertyListLimits

    /// Reads the binary property list in `data` and checks that it is a keyed archive.
    /// - Throws: ``PropertyListError``.
    public init(_ data: Data, limits: PropertyListLimits = PropertyListLimits()) throws(PropertyListError) {
        try self.init(propertyList: try BinaryPropertyListReader(limits: limits).read(data), limits: limits)
    }

    /// Checks that `propertyList` is a keyed archive: `$archiver` NSKeyedArchiver, `$version`
    /// 100000, `$objects` an array starting with `$null`, `$top` a dictionary.
    /// - Throws: ``PropertyListError``.
    public init(propertyList: PropertyListValue, limits: PropertyListLimits = PropertyListLimits())
        throws(PropertyListError)
    {
        func refuse(_ what: String) -> PropertyListError {
            PropertyListError(.notAKeyedArchive(what), at: .archivedObject(0))
        }
        guard let archive = propertyList.dictionaryValue else { throw refuse("the top value is not a dictionary") }
        guard archive["$archiver"]?.stringValue == "NSKeyedArchiver" else {
            throw refuse("$archiver is not NSKeyedArchiver")
        }
        guard archive["$version"]?.integerValue == 100_000 else { throw refuse("$version is not 100000") }
        guard let objects = archive["$objects"]?.arrayValue else { throw refuse("$objects is not an array") }
        guard objects.first?.stringValue == "$null" else { throw refuse("$objects does not start with $null") }
        guard objects.count <= limits.maxObjects else {
            throw PropertyListError(
                .tooManyObjects(count: UInt64(objects.count), limit: limits.maxObjects), at: .archivedObject(0))
        }
        guard let top = archive["$top"]?.dictionaryValue else { throw refuse("$top is not a dictionary") }
        self.objects = objects
        self.top = top
        self.limits = limits
    }

    /// The object `$top.root` names, resolved.
    /// - Throws: ``PropertyListError`` naming the `$objects` index at fault.
    public func root() throws(PropertyListError) -> ArchivedValue {
        try resolveTop("root")
    }

    /// The object `$top[key]` names, resolved.
    /// - Throws: ``PropertyListError`` naming the `$objects` index at fault.
    public func resolveTop(_ key: String) throws(PropertyListError) -> ArchivedValue {
        guard let uid = top[key]?.uidValue else {
            throw PropertyListError(.notAKeyedArchive("$top has no UID called '\(key)'"), at: .archivedObject(0))
        }
        let resolver = ArchiveResolver(archive: self)
        return try resolver.object(named: uid, from: 0, depth: 1)
    }
}

/// Resolves the objects of one archive, each once.
private struct ArchiveResolver {
    let archive: KeyedArchive
    let objects: SharedObjects<ArchivedValue>

    init(archive: KeyedArchive) {
        self.archive = archive
        objects = SharedObjects(count: archive.objects.count, maxValues: archive.limits.maxValues)
    }

    /// The object `uid` names, referred to by `$objects[owner]`, at nesting `depth`.
    func object(named uid: UInt64, from owner: Int, depth: Int) throws(PropertyListError) -> ArchivedValue {
        guard uid < UInt64(archive.objects.count) else {
            throw PropertyListError(.uidOutOfRange(uid, objectCount: archive.objects.count), at: .archivedObject(owner))
        }
        let index = Int(uid)
        guard index != 0 else { return .null }
        guard depth <= archive.limits.maxDepth else {
            throw PropertyListError(.tooDeep(limit: archive.limits.maxDepth), at: .archivedObject(index))
        }
        return try objects.object(index, at: .archivedObject(index)) { () throws(PropertyListError) in
            try resolve(index, depth: depth)
        }
    }

    /// `$objects[index]` resolved: an object with its class and fields, or a plain value.
    private func resolve(_ index: Int, depth: Int) throws(PropertyListError) -> ArchivedValue {
        switch archive.objects[index] {
        case .dictionary(let dictionary):
            guard let classUID = dictionary["$class"] else { throw invalid(index, "a dictionary without $class") }
            let (className, hierarchy) = try classDescription(classUID, of: index)
            var fields: [String: ArchivedValue] = [:]
            for (key, value) in dictionary where key != "$class" {
                fields[key] = try field(value, of: index, depth: depth + 1)
            }
            return .object(
                ArchivedObject(index: index, className: className, classHierarchy: hierarchy, fields: fields))
        case .array, .uid:
            throw invalid(index, "an array or UID where an object belongs")
        case let scalar:
            return .scalar(scalar)
        }
    }

    /// A field value of `$objects[owner]`: a UID or an array resolved, a plain value kept.
    private func field(_ value: PropertyListValue, of owner: Int, depth: Int) throws(PropertyListError)
        -> ArchivedValue
    {
        switch value {
        case .uid(let uid):
            return try object(named: uid, from: owner, depth: depth)
        case .array(let elements):
            guard depth <= archive.limits.maxDepth else {
                throw PropertyListError(.tooDeep(limit: archive.limits.maxDepth), at: .archivedObject(owner))
            }
            try objects.count(1, at: .archivedObject(owner))
            var members: [ArchivedValue] = []
            for element in elements { members.append(try field(element, of: owner, depth: depth + 1)) }
            return .array(members)
        case .dictionary:
            throw invalid(owner, "a field holds a dictionary, which archives store as objects")
        case let scalar:
            try objects.count(1, at: .archivedObject(owner))
            return .scalar(scalar)
        }
    }

    /// The class name and hierarchy of the class description `uid` names.
    private func classDescription(_ uid: PropertyListValue, of owner: Int) throws(PropertyListError) -> (
        String, [String]
    ) {
        guard let index = uid.uidValue else { throw invalid(owner, "$class is a \(uid.kind), not a UID") }
        guard index < UInt64(archive.objects.count) else {
            throw PropertyListError(
                .uidOutOfRange(index, objectCount: archive.objects.count), at: .archivedObject(owner))
        }
        let description = archive.objects[Int(index)]
        guard let name = description["$classname"]?.stringValue else {
            throw invalid(Int(index), "the class description has no $classname string")
        }
        let hierarchy = description["$classes"]?.arrayValue?.compactMap(\.stringValue) ?? []
        return (name, hierarchy)
    }

    private func invalid(_ index: Int, _ what: String) -> PropertyListError {
        PropertyListError(.invalidArchivedObject(what), at: .archivedObject(index))
    }
}
