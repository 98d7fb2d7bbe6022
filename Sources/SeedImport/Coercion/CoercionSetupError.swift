// The error of a mapping whose coercion options cannot apply to its attribute (a plan error,
// reported before any record is read).

/// Coercion options that are wrong for their attribute: an unknown date pattern token, true and
/// false words that overlap, an unknown binary encoding, a default value that does not coerce…
///
/// ```swift
/// do {
///     _ = try ValueCoercer(attribute: added, mapping: mapping)
/// } catch {
///     print(error)   // attribute 'added': unknown date pattern token 'Q' in "dd/MM/yyyy Q"
/// }
/// ```
public struct CoercionSetupError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name of the attribute whose mapping is wrong.
    public var attribute: String
    /// What is wrong.
    public var reason: String

    /// An error for `attribute` saying `reason`.
    public init(attribute: String, reason: String) {
        self.attribute = attribute
        self.reason = reason
    }

    /// An error whose attribute ``ValueCoercer`` fills in.
    init(_ reason: String) {
        self.init(attribute: "", reason: reason)
    }

    /// `attribute 'added': unknown date pattern token 'Q' in "dd/MM/yyyy Q"`.
    public var description: String { "attribute '\(attribute)': \(reason)" }
}
