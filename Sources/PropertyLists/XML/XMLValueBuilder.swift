// XMLValueBuilder: turns the elements of a parsed XML property list into PropertyListValues —
// <dict> (alternating <key> and value), <array>, <string>, <integer> (decimal, or hexadecimal
// with 0x), <real>, <true/>, <false/>, <date> (ISO 8601, UTC), <data> (base64) — counting values
// and depth against the limits. Errors name the element's line.
import CLibXML2
import Foundation

/// Builds values from the elements of one XML property list.
struct XMLValueBuilder {
    let limits: PropertyListLimits
    private var valueCount = 0

    init(limits: PropertyListLimits) {
        self.limits = limits
    }

    /// The value of the element `node`, which sits at nesting `depth`.
    mutating func value(_ node: xmlNodePtr, depth: Int) throws(PropertyListError) -> PropertyListValue {
        let position = XMLPropertyListReader.position(of: node)
        guard depth <= limits.maxDepth else { throw PropertyListError(.tooDeep(limit: limits.maxDepth), at: position) }
        valueCount += 1
        guard valueCount <= min(limits.maxValues, limits.maxObjects) else {
            throw PropertyListError(.tooManyValues(limit: min(limits.maxValues, limits.maxObjects)), at: position)
        }
        let name = XMLPropertyListReader.name(of: node)
        switch name {
        case "dict":
            return try dictionary(node, depth: depth)
        case "array":
            var elements: [PropertyListValue] = []
            for element in XMLPropertyListReader.elements(in: node) {
                elements.append(try value(element, depth: depth + 1))
            }
            return .array(elements)
        case "true", "false":
            guard try text(of: node).allSatisfy(\.isWhitespace) else {
                throw PropertyListError(.invalidXML("<\(name)/> must be empty"), at: position)
            }
            return .boolean(name == "true")
        case "string":
            return .string(try text(of: node))
        case "integer":
            return .integer(try Self.integer(try text(of: node), at: position))
        case "real":
            let text = try text(of: node).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let real = Double(text) else { throw invalid("a real", text, at: position) }
            return .real(real)
        case "date":
            let text = try text(of: node).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let date = Self.date(text) else {
                throw invalid("an ISO 8601 date (YYYY-MM-DDTHH:MM:SSZ)", text, at: position)
            }
            return .date(date)
        case "data":
            let text = try text(of: node).filter { !$0.isWhitespace }
            guard let data = Data(base64Encoded: text) else {
                throw invalid("base64 data", String(text.prefix(40)), at: position)
            }
            return .data(data)
        default:
            throw PropertyListError(.invalidXML("<\(name)> is not a property-list element"), at: position)
        }
    }

    /// A `<dict>`: `<key>` elements each followed by a value; a dictionary whose only key is
    /// `CF$UID` with an integer is a UID.
    private mutating func dictionary(_ node: xmlNodePtr, depth: Int) throws(PropertyListError) -> PropertyListValue {
        let children = XMLPropertyListReader.elements(in: node)
        var result = PropertyListDictionary()
        var index = 0
        while index < children.count {
            let keyNode = children[index]
            guard XMLPropertyListReader.name(of: keyNode) == "key" else {
                let name = XMLPropertyListReader.name(of: keyNode)
                throw PropertyListError(
                    .invalidXML("<dict> holds <\(name)> where a <key> belongs"),
                    at: XMLPropertyListReader.position(of: keyNode))
            }
            let key = try text(of: keyNode)
            guard index + 1 < children.count else {
                throw PropertyListError(
                    .invalidXML("the key '\(key)' has no value"), at: XMLPropertyListReader.position(of: keyNode))
            }
            guard !result.contains(key: key) else {
                throw PropertyListError(.duplicateKey(key), at: XMLPropertyListReader.position(of: keyNode))
            }
            result[key] = try value(children[index + 1], depth: depth + 1)
            index += 2
        }
        if result.count == 1, let uid = result["CF$UID"]?.integerValue, uid >= 0 { return .uid(UInt64(uid)) }
        return .dictionary(result)
    }

    /// The text and CDATA content of `node`; a child element is an error.
    private func text(of node: xmlNodePtr) throws(PropertyListError) -> String {
        var result = ""
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                result += current.pointee.content.map { String(cString: $0) } ?? ""
            case XML_COMMENT_NODE, XML_PI_NODE:
                break
            default:
                let name = XMLPropertyListReader.name(of: node)
                throw PropertyListError(
                    .invalidXML("<\(name)> may hold text only"), at: XMLPropertyListReader.position(of: current))
            }
            child = current.pointee.next
        }
        return result
    }

    private func invalid(_ expected: String, _ text: String, at position: PropertyListError.Position)
        -> PropertyListError
    {
        PropertyListError(.invalidXML("'\(text)' is not \(expected)"), at: position)
    }

    /// A decimal integer with an optional sign, or a hexadecimal one after `0x`.
    private static func integer(_ text: String, at position: PropertyListError.Position) throws(PropertyListError)
        -> Int64
    {
        var digits = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
        let negative = digits.first == "-"
        if digits.first == "-" || digits.first == "+" { digits = digits.dropFirst() }
        let radix = digits.lowercased().hasPrefix("0x") ? 16 : 10
        if radix == 16 { digits = digits.dropFirst(2) }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isHexDigit && (radix == 16 || $0.isNumber) }) else {
            throw PropertyListError(.invalidXML("'\(text)' is not an integer"), at: position)
        }
        guard let magnitude = UInt64(digits, radix: radix),
            negative ? magnitude <= UInt64(Int64.max) + 1 : magnitude <= UInt64(Int64.max)
        else { throw PropertyListError(.integerOutOfRange, at: position) }
        return negative ? Int64(bitPattern: 0 &- magnitude) : Int64(magnitude)
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` as a date.
    static func date(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        let separators: [(Int, UInt8)] = [(4, 0x2D), (7, 0x2D), (10, 0x54), (13, 0x3A), (16, 0x3A), (19, 0x5A)]
        guard bytes.count == 20, separators.allSatisfy({ bytes[$0.0] == $0.1 }) else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            guard bytes[range].allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            return bytes[range].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        // Days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's days_from_civil).
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let seconds = Double(days * 86_400 + hour * 3_600 + minute * 60 + second)
        return Date(timeIntervalSince1970: seconds)
    }
}
