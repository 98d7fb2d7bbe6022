// The benchmark catalog's records (docs/Performance.md): items (unique `sku`, name, price,
// quantity, listed, added, notes for about 30 %, a unit, an aisle and 0–3 tags) and shopping lists
// (unique `code`, title, created, 1–20 distinct item skus in order), drawn from fixed value pools
// with a seeded generator. About 3.5 % of names and titles are awkward: quotes, commas, line
// breaks, tabs, non-ASCII (é, ß, 日本) and XML specials. Each record renders itself as a CSV/TSV
// row, a JSON object and an XML element. Invariant: the n-th item depends only on the seed and
// the items before it, never on how many are written.
import Foundation

/// A value with its escaped forms, computed once per pool entry.
struct CatalogText {
    /// The value as a CSV field, quoted when needed.
    let csv: String
    /// The value as a TSV field, quoted when needed.
    let tsv: String
    /// The value as a JSON string literal, with its quotes.
    let json: String
    /// The value as XML element text.
    let xml: String
    /// The value as an XML attribute value (without its quotes).
    let attribute: String

    init(_ value: String) {
        csv = Self.field(value, delimiter: ",")
        tsv = Self.field(value, delimiter: "\t")
        json = Self.jsonString(value)
        xml = Self.escapedXML(value)
        attribute = xml.replacing(["\n": "&#10;", "\r": "&#13;", "\t": "&#9;"])
    }

    /// `value` quoted (RFC 4180) when it holds the delimiter, a quote or a line break.
    private static func field(_ value: String, delimiter: Character) -> String {
        guard value.contains(where: { $0 == delimiter || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else {
            return value
        }
        return "\"" + value.replacing(["\"": "\"\""]) + "\""
    }

    /// `value` as a JSON string literal (non-ASCII kept as it is).
    private static func jsonString(_ value: String) -> String {
        "\"" + value.replacing(["\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"]) + "\""
    }

    /// `value` with all five XML specials escaped (so `'` and `"` are exercised too).
    private static func escapedXML(_ value: String) -> String {
        value.replacing(["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&apos;"])
    }
}

/// The value pools records are drawn from (the same for every seed).
struct CatalogPools {
    let names: [CatalogText]
    let awkwardNames: [CatalogText]
    let notes: [CatalogText]
    let titles: [CatalogText]
    let awkwardTitles: [CatalogText]
    let tags: [String]
    let aisles: [String]
    let days: [String]

    static let units = [
        "kg", "g", "l", "ml", "pack", "piece", "box", "bottle", "can", "jar", "bag", "dozen", "bunch", "tray",
        "crate", "roll", "tube", "sachet", "carton", "tin",
    ]
    private static let adjectives = [
        "Fresh", "Organic", "Smoked", "Sweet", "Spicy", "Frozen", "Dried", "Roasted", "Wild", "Golden", "Red",
        "Green", "Whole", "Light", "Dark", "Classic", "Mild", "Crunchy", "Creamy", "Salted", "Plain", "Mixed",
        "Baby", "Large", "Small", "Premium", "Rustic", "Tender", "Young", "Aged", "Sliced", "Ground", "Pickled",
        "Toasted", "Raw", "Soft", "Hard", "Sparkling", "Still", "Local",
    ]
    private static let nouns = [
        "Apples", "Bananas", "Bread", "Butter", "Cheese", "Milk", "Yogurt", "Eggs", "Rice", "Pasta", "Beans",
        "Lentils", "Tomatoes", "Potatoes", "Onions", "Garlic", "Carrots", "Peppers", "Salmon", "Tuna", "Chicken",
        "Beef", "Ham", "Sausages", "Coffee", "Tea", "Juice", "Water", "Cider", "Chocolate", "Biscuits", "Crackers",
        "Honey", "Jam", "Olives", "Nuts", "Almonds", "Oats", "Flour", "Sugar", "Salt", "Pepper", "Vinegar", "Oil",
        "Mustard", "Ketchup", "Soup", "Noodles", "Tofu", "Mushrooms", "Spinach", "Lettuce", "Cabbage", "Pears",
        "Grapes", "Lemons", "Oranges", "Plums", "Cherries", "Melons",
    ]
    private static let awkward = [
        "Milk, whole", "Keep \"cold\"", "Two\nlines", "Crème fraîche", "Weißbier Straße", "日本茶 (green tea)",
        "Salt & <Pepper>", "O'Brien's \"best\", <mild> & sweet", "Tab\tseparated", "Ünïcödé ☕ café", " padded ",
        "a;b, c\n\"d\" <e> & 'f'",
    ]
    private static let noteValues = [
        "Fair trade", "Keep refrigerated", "Seasonal", "Limited stock", "New supplier", "Best before end of month",
        "Keep \"cold\"", "Two\nlines", "Contains nuts & seeds", "Ask at the <deli> counter", "Prix spécial",
        "Preis pro Stück, Größe M",
    ]
    private static let tagWords = [
        "fresh", "fruit", "dairy", "bakery", "frozen", "vegan", "organic", "local", "sale", "new", "bulk", "snack",
        "drink", "spice", "meat", "fish", "deli", "pantry", "breakfast", "baby", "pet", "household", "gluten-free",
        "café", "日本",
    ]
    private static let titleWords = [
        "Weekly shop", "Breakfast", "Party", "Barbecue", "Camping", "Picnic", "Dinner", "Lunch boxes", "Holiday",
        "Baking day",
    ]

    /// The first day of the dates drawn, 2020-01-01, in days since 1970-01-01.
    private static let firstDay = 18262
    /// Seven years of dates.
    static let dayCount = 2557

    init() {
        names = Self.adjectives.flatMap { adjective in Self.nouns.map { CatalogText("\(adjective) \($0)") } }
        awkwardNames = Self.awkward.flatMap { word in Self.nouns.map { CatalogText("\(word) \($0)") } }
        notes = Self.noteValues.map(CatalogText.init)
        titles = Self.titleWords.flatMap { title in (1...20).map { CatalogText("\(title) \($0)") } }
        awkwardTitles = Self.awkward.flatMap { word in Self.titleWords.map { CatalogText("\(word) \($0)") } }
        tags = Self.tagWords.flatMap { word in (1...20).map { "\(word)-\($0)" } }
        aisles = (0..<10).flatMap { row in
            (1...10).map { String(UnicodeScalar(UInt8(ascii: "A") + UInt8(row))) + String($0) }
        }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        days = (0..<Self.dayCount).map {
            formatter.string(from: Date(timeIntervalSince1970: Double(Self.firstDay + $0) * 86_400))
        }
    }
}

/// One catalog item.
struct CatalogItem {
    let sku: String
    let name: CatalogText
    let price: String
    let quantity: Int
    let listed: Bool
    let added: String
    let notes: CatalogText?
    let unit: String
    let aisle: String
    let tags: [String]

    /// The item with the sku numbered `sku`, drawn from `pools` with `random`.
    init(sku: Int, pools: CatalogPools, random: inout SeededGenerator) {
        func below(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &random) }
        self.sku = catalogSKU(sku)
        name =
            chance(awkward, &random)
            ? pools.awkwardNames[below(pools.awkwardNames.count)] : pools.names[below(pools.names.count)]
        let cents = 1 + below(99_999)
        price = "\(cents / 100).\(padded(cents % 100, 2))"
        quantity = below(10_000)
        listed = chance(0.8, &random)
        added = catalogTimestamp(pools: pools, random: &random)
        notes = chance(0.3, &random) ? pools.notes[below(pools.notes.count)] : nil
        unit = CatalogPools.units[below(CatalogPools.units.count)]
        aisle = pools.aisles[below(pools.aisles.count)]
        var tags: [String] = []
        for _ in 0..<below(4) {
            let tag = pools.tags[below(pools.tags.count)]
            if !tags.contains(tag) { tags.append(tag) }
        }
        self.tags = tags
    }

    /// A CSV row (`delimiter` ",") or a TSV row ("\t"), with its line break.
    func row(delimiter: String) -> String {
        let fields = [
            sku, delimiter == "\t" ? name.tsv : name.csv, price, String(quantity), listed ? "yes" : "no", added,
            (delimiter == "\t" ? notes?.tsv : notes?.csv) ?? "", unit, aisle, tags.joined(separator: ";"),
        ]
        return fields.joined(separator: delimiter) + "\n"
    }

    /// A JSON object on one line.
    var json: String {
        "{\"sku\": \"\(sku)\", \"name\": \(name.json), \"price\": \(price), \"quantity\": \(quantity), "
            + "\"listed\": \(listed), \"added\": \"\(added)\", \"notes\": \(notes?.json ?? "null"), "
            + "\"unit\": \"\(unit)\", \"location\": \"\(aisle)\", \"tags\": [\(quotedList(tags))]}"
    }

    /// An `<item>` element with its line breaks.
    var xml: String {
        "  <item sku=\"\(sku)\" price=\"\(price)\" quantity=\"\(quantity)\" listed=\"\(listed)\" added=\"\(added)\" "
            + "unit=\"\(unit)\" location=\"\(aisle)\">\n    <name>\(name.xml)</name>"
            + (notes.map { "<notes>\($0.xml)</notes>" } ?? "") + tags.map { "<tag>\($0)</tag>" }.joined()
            + "\n  </item>\n"
    }
}

/// One shopping list.
struct CatalogList {
    let code: String
    let title: CatalogText
    let created: String
    let skus: [String]

    /// The list at `index`, of 1–20 distinct skus among the first `items` items.
    init(index: Int, items: Int, pools: CatalogPools, random: inout SeededGenerator) {
        func below(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &random) }
        code = "L-" + padded(index, 6)
        title =
            chance(awkward, &random)
            ? pools.awkwardTitles[below(pools.awkwardTitles.count)] : pools.titles[below(pools.titles.count)]
        created = catalogTimestamp(pools: pools, random: &random)
        var chosen: [Int] = []
        let count = min(items, 1 + below(20))
        while chosen.count < count {
            let item = below(items)
            if !chosen.contains(item) { chosen.append(item) }
        }
        skus = chosen.map(catalogSKU)
    }

    /// A CSV row with its line break.
    var csv: String { "\(code),\(title.csv),\(created),\(skus.joined(separator: ";"))\n" }

    /// A JSON object on one line.
    var json: String {
        "{\"code\": \"\(code)\", \"title\": \(title.json), \"created\": \"\(created)\", \"items\": [\(quotedList(skus))]}"
    }

    /// A `<list>` element with its line breaks.
    var xml: String {
        "  <list code=\"\(code)\" title=\"\(title.attribute)\" created=\"\(created)\">\n    "
            + skus.map { "<entry sku=\"\($0)\"/>" }.joined() + "\n  </list>\n"
    }
}

/// The share of awkward names and titles.
private let awkward = 0.035

/// Whether a draw falls under `share`.
private func chance(_ share: Double, _ random: inout SeededGenerator) -> Bool {
    Double.random(in: 0..<1, using: &random) < share
}

/// The sku of the item at `index`: `SKU-0000042`.
private func catalogSKU(_ index: Int) -> String { "SKU-" + padded(index, 7) }

/// An ISO 8601 UTC timestamp within the pools' seven years.
private func catalogTimestamp(pools: CatalogPools, random: inout SeededGenerator) -> String {
    let day = pools.days[Int.random(in: 0..<CatalogPools.dayCount, using: &random)]
    let second = Int.random(in: 0..<86_400, using: &random)
    return "\(day)T\(padded(second / 3600, 2)):\(padded(second / 60 % 60, 2)):\(padded(second % 60, 2))Z"
}

/// `values` as quoted JSON strings separated by ", " (the values need no escaping).
private func quotedList(_ values: [String]) -> String {
    values.map { "\"\($0)\"" }.joined(separator: ", ")
}

/// `value` padded on the left with zeros to `width` digits.
private func padded(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}

extension String {
    /// The string with each character found in `replacements` replaced by its value.
    fileprivate func replacing(_ replacements: [Character: String]) -> String {
        var out = ""
        for character in self {
            if let replacement = replacements[character] { out += replacement } else { out.append(character) }
        }
        return out
    }
}
