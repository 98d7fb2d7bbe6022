// Why a value failed to coerce, as cheap values: the parsers throw these (no strings built on the
// success path, few on failure) and `ValueCoercer` turns them into a `CoercionError` sentence.

/// What is wrong with one value; see ``CoercionTarget/reason(for:shown:)`` for the wording.
enum CoercionProblem: Error, Sendable, Hashable {
    /// The text is not written as the target expects: `"12x" is not an integer`.
    case syntax
    /// The text has the right shape but a wrong part: `… is not a date in format iso8601 (detail)`.
    case invalid(String)
    /// The value is outside the target type's range: `"70000" is out of range for integer16 (…)`.
    case outOfRange
    /// A decimal with more significant digits than `Decimal` holds exactly.
    case tooManyDigits
    /// A list given for a single value; the count when known.
    case list(count: Int?)
    /// A JSON object, or an XML element without text of its own, given for a single value.
    case nestedRecord
}
