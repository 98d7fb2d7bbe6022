// PropertyListDictionary: a property list's dictionary — string keys in a kept order, each key
// once. Keys are compared by their Unicode scalars, as Core Foundation compares them (Swift's
// String equality would merge canonically equivalent keys such as "é" and "e\u{301}").
// Equality ignores the order: it is presentation, and writing may sort it.

/// A dictionary of a property list: unique string keys in order, each with a value.
///
/// Reading keeps the file's order; ``BinaryPropertyListWriter`` sorts keys by code point
/// unless told to keep this order. Two dictionaries are equal when they hold the same keys with
/// equal values, in any order.
public struct PropertyListDictionary: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    /// A key and its value.
    public typealias Element = (key: String, value: PropertyListValue)

    private var keyList: [String] = []
    private var valueList: [PropertyListValue] = []
    private var positions: [ExactString: Int] = [:]

    /// An empty dictionary.
    public init() {}

    /// A dictionary of `pairs` in their order; a key given again replaces the earlier value in its place.
    public init(_ pairs: some Sequence<(String, PropertyListValue)>) {
        for (key, value) in pairs { self[key] = value }
    }

    /// A dictionary of the literal's pairs in the order written.
    public init(dictionaryLiteral elements: (String, PropertyListValue)...) {
        self.init(elements)
    }

    /// The keys, in order.
    public var keys: [String] { keyList }

    /// The values, in the order of their keys.
    public var values: [PropertyListValue] { valueList }

    /// The position of the first pair.
    public var startIndex: Int { 0 }

    /// The position after the last pair.
    public var endIndex: Int { keyList.count }

    /// The pair at `position`.
    public subscript(position: Int) -> Element { (keyList[position], valueList[position]) }

    /// The value of `key`; setting `nil` removes the key, setting a new key appends it.
    public subscript(key: String) -> PropertyListValue? {
        get { positions[ExactString(key)].map { valueList[$0] } }
        set {
            let exact = ExactString(key)
            switch (positions[exact], newValue) {
            case (let position?, let value?):
                valueList[position] = value
            case (let position?, nil):
                keyList.remove(at: position)
                valueList.remove(at: position)
                positions[exact] = nil
                for index in position..<keyList.count { positions[ExactString(keyList[index])] = index }
            case (nil, let value?):
                positions[exact] = keyList.count
                keyList.append(key)
                valueList.append(value)
            case (nil, nil):
                break
            }
        }
    }

    /// Whether `key` is present.
    public func contains(key: String) -> Bool { positions[ExactString(key)] != nil }

    /// The same pairs with the keys in ascending code-point order.
    public func sortedByKey() -> PropertyListDictionary {
        let order = keyList.indices.sorted { ExactString(keyList[$0]) < ExactString(keyList[$1]) }
        return PropertyListDictionary(order.map { (keyList[$0], valueList[$0]) })
    }

    /// Equal when both hold the same keys with equal values, whatever their order.
    public static func == (lhs: PropertyListDictionary, rhs: PropertyListDictionary) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return zip(lhs.keyList, lhs.valueList).allSatisfy { key, value in rhs[key] == value }
    }

    /// A hash that does not depend on the order of the keys.
    public func hash(into hasher: inout Hasher) {
        var sum = 0
        for (key, value) in zip(keyList, valueList) {
            var pairHasher = Hasher()
            pairHasher.combine(ExactString(key))
            pairHasher.combine(value)
            sum &+= pairHasher.finalize()
        }
        hasher.combine(keyList.count)
        hasher.combine(sum)
    }
}
