// What the Core Data–layout tests share: the fixture models (CoreDataPlus's SampleModel, the
// FreeCoreData excerpt), the repository's Grocery Dude sample, scratch folders, and reading a
// store's rows and schema with plain SQL (never through the layout under test).
import Foundation
import GraphStore
import ModelFiles

enum CoreDataFixtures {
    /// `Tests/CoreDataStoresTests/Fixtures`.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
    /// The repository's root.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// A version of CoreDataPlus's SampleModel (`SampleModel`, `SampleModel2`, `SampleModel3`).
    static func sampleModel(_ version: String = "SampleModel") throws -> ObjectModel {
        try ModelLoader.load(
            from: folder.appendingPathComponent("CoreDataPlus/SampleModel.xcdatamodeld/\(version).xcdatamodel").path)
    }

    /// The path of the Grocery Dude sample's file `name` (in `SeedData/GroceryDude`).
    static func groceryDude(_ name: String) -> String {
        repository.appendingPathComponent("SeedData/GroceryDude/\(name)").path
    }

    /// A new empty scratch folder.
    static func scratch() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "seedkit-coredata-\(UUID().uuidString)"
        )
        .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Options that create a Core Data–layout store.
    static var coreData: StoreOptions {
        var options = StoreOptions()
        options.layout = .coreData
        return options
    }

    /// Every row `sql` gives in the database at `path`, each column as text (`nil` for NULL).
    static func rows(_ sql: String, in path: String) throws -> [[String]] {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        defer { connection.close() }
        let statement = try connection.prepare(sql)
        var rows: [[String]] = []
        while try statement.step() {
            rows.append((0..<statement.columnCount).map { statement.isNull($0) ? "nil" : statement.string($0) })
        }
        return rows
    }

    /// The first column of every row `sql` gives.
    static func column(_ sql: String, in path: String) throws -> [String] {
        try rows(sql, in: path).map { $0.first ?? "" }
    }

    /// `sqlite_master`'s SQL of every object of `type` (`table`, `index`) by name.
    static func schema(_ type: String, in path: String) throws -> [String: String] {
        var schema: [String: String] = [:]
        for row in try rows("SELECT name, sql FROM sqlite_master WHERE type = '\(type)' AND sql IS NOT NULL", in: path)
        {
            schema[row[0]] = row[1]
        }
        return schema
    }

    /// A `CREATE TABLE` statement's column definitions, in any order, with spaces normalised:
    /// column order is cosmetic in Core Data's tables (it names columns in every statement).
    static func columnDefinitions(_ createTable: String) -> Set<String> {
        guard let open = createTable.firstIndex(of: "("), let close = createTable.lastIndex(of: ")") else { return [] }
        var parts: [String] = []
        var depth = 0
        var current = ""
        for character in createTable[createTable.index(after: open)..<close] {
            if character == "(" { depth += 1 }
            if character == ")" { depth -= 1 }
            if character == ",", depth == 0 {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        return Set(parts.map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") })
    }
}
