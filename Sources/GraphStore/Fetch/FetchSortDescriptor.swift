// How fetched objects are ordered: a key path (through to-one relationships), a direction and
// optional string folding. Invariants: NULL sorts first ascending and last descending, as in
// SQLite; `compare(_:_:)` orders objects exactly as the SQL `ORDER BY` that `FetchQueryBuilder`
// writes; ties are left to the caller (fetches break them by primary key).

/// One sort key of a ``FetchRequest``.
///
/// ```swift
/// let request = FetchRequest(entityName: "Item", sortDescriptors: [
///     FetchSortDescriptor("unit.name"),
///     FetchSortDescriptor("name", options: .caseInsensitive),
///     FetchSortDescriptor("price", ascending: false),
/// ])
/// ```
public struct FetchSortDescriptor: Sendable, Hashable {
    /// The dotted key path of an attribute, through to-one relationships.
    public var keyPath: String
    /// Whether smaller values come first.
    public var ascending: Bool
    /// For string keys: compare after case (`.caseInsensitive`) and/or diacritic folding.
    public var options: StringComparisonOptions

    /// Sorts by `keyPath`, ascending unless told otherwise, comparing strings as they are.
    public init(_ keyPath: String, ascending: Bool = true, options: StringComparisonOptions = []) {
        self.keyPath = keyPath
        self.ascending = ascending
        self.options = options
    }

    /// Whether string keys compare case-insensitively.
    public var isCaseInsensitive: Bool { options.contains(.caseInsensitive) }

    /// -1, 0 or 1 as `a` sorts before, with or after `b` under this descriptor.
    ///
    /// - Throws: ``FetchError`` when the key path does not end at an attribute, or the two
    ///   objects hold values of kinds that do not compare.
    public func compare(_ a: any PredicateSubject, _ b: any PredicateSubject) throws -> Int {
        let order: Int
        switch (try sortValue(of: a), try sortValue(of: b)) {
        case (nil, nil): order = 0
        case (nil, _): order = -1
        case (_, nil): order = 1
        case (let left?, let right?):
            guard let compared = ValueOrder.compare(left, right) else {
                throw FetchError.typeMismatch(keyPath: keyPath, expected: left.kindName, found: right.kindName)
            }
            order = compared
        }
        return ascending ? order : -order
    }

    /// The value `subject` sorts by: its attribute value, folded when it is text and options
    /// are set; nil for nil.
    private func sortValue(of subject: any PredicateSubject) throws -> AttributeValue? {
        switch try PredicateEvaluator.value(atKeyPath: keyPath, of: subject) {
        case .null:
            return nil
        case .value(let value):
            guard !options.isEmpty, let text = value.predicateText else { return value }
            return .string(StringFolding.fold(text, options: options))
        case .object, .objects:
            throw FetchError.unsupportedKeyPath(
                entity: PredicateEvaluator.entityName(of: subject), keyPath: keyPath,
                reason: "a sort key must be an attribute")
        }
    }
}
