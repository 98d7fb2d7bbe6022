// PropertyListReader: reads a property list in either format, choosing by its first bytes
// (`bplist00`: binary; otherwise XML).
import Foundation

/// Reads binary and XML property lists.
///
/// ```swift
/// let plist = try PropertyListReader().read(Data(contentsOf: url))
/// ```
public struct PropertyListReader: Sendable {
    /// The bounds the input must stay within.
    public var limits: PropertyListLimits

    /// A reader with `limits`.
    public init(limits: PropertyListLimits = PropertyListLimits()) {
        self.limits = limits
    }

    /// Reads `data` as a binary property list when it starts with `bplist00`, else as XML.
    /// - Throws: ``PropertyListError``.
    public func read(_ data: Data) throws(PropertyListError) -> PropertyListValue {
        if BinaryPropertyListReader.isBinaryPropertyList(data) {
            return try BinaryPropertyListReader(limits: limits).read(data)
        }
        return try XMLPropertyListReader(limits: limits).read(data)
    }
}
