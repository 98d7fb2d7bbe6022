// Helpers for import tests: temporary folders with plan, model and source files, and a way to
// read a store's contents back as plain rows for comparison.
import Foundation
import GraphStore

@testable import SeedImport
import TestSupport

/// A temporary folder holding a model, sources and plans for one test.
struct ImportFixture {
    let folder: String

    /// The repository's root folder.
    static let repository = Repository.root

    init() throws {
        folder =
            ScratchFolder.path("seedkit-import")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try copy("SeedData/Catalog/Catalog.yaml", as: "Catalog.yaml")
    }

    /// Copies a file of the repository into the folder.
    func copy(_ repositoryPath: String, as name: String) throws {
        let target = path(name)
        try? FileManager.default.removeItem(atPath: target)
        try FileManager.default.copyItem(
            atPath: Self.repository.appendingPathComponent(repositoryPath).path, toPath: target)
    }

    /// Writes `text` to `name` in the folder.
    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path(name)))
    }

    /// The path of `name` in the folder.
    func path(_ name: String) -> String { folder + "/" + name }

    /// Runs the plan file `name` with `options`.
    func run(_ name: String, options: ImportOptions = ImportOptions()) async throws -> ImportReport {
        try await Importer(planFile: path(name), options: options).run()
    }

    /// Every row of the query, as text, for comparing stores.
    static func rows(_ store: String, _ sql: String) throws -> [String] {
        let connection = try SQLiteConnection(path: store, mode: .readOnly)
        let statement = try connection.prepare(sql)
        var rows: [String] = []
        while try statement.step() {
            rows.append(
                (0..<statement.columnCount).map { statement.isNull($0) ? "NULL" : statement.string($0) }.joined(
                    separator: "|"))
        }
        return rows
    }

    /// The catalog as rows independent of keys: items with unit, location and sorted tags; lists in order.
    static func catalogContents(_ store: String) throws -> [String] {
        try rows(
            store,
            """
            SELECT i.sku, i.name, i.price, i.quantity, i.listed, i.added, i.notes, u.name, l.aisle,
              (SELECT group_concat(name) FROM (SELECT t.name FROM Item_tags j JOIN Tag t ON t.pk = j.dst
               WHERE j.src = i.pk ORDER BY t.name))
            FROM Item i LEFT JOIN Unit u ON u.pk = i.unit LEFT JOIN Location l ON l.pk = i.location ORDER BY i.sku
            """)
            + rows(
                store,
                """
                SELECT s.code, s.title, (SELECT group_concat(sku) FROM (SELECT i.sku FROM ShoppingList_items j
                  JOIN Item i ON i.pk = j.dst WHERE j.src = s.pk ORDER BY j.position))
                FROM ShoppingList s ORDER BY s.code
                """)
    }
}
