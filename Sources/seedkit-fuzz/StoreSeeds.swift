// StoreSeeds: the starting corpus of the store fuzzer. Either the database files a user names
// (any `.sqlite`: stores of either layout that SeedKit reads, built by `seedkit build` or by an
// app), or, by default, stores made here in both layouts from a small model that has every
// attribute type, a sub-entity sharing its parent's table, to-one, to-many, many-to-many and
// ordered relationships, unique constraints and an index: in each layout one shipped as a single
// file (journal mode DELETE) and one left in WAL mode, as a closed store is. A Core Data–layout
// store holds no model: the fuzzer reads those with this model (`model`).
import Foundation
import GraphStore

enum StoreSeeds {
    /// The files of `paths` (files, or folders whose `.sqlite` files are taken), or the built-in
    /// seeds written into `work` when `paths` is empty.
    static func corpus(_ paths: [String], work: String) throws -> [[UInt8]] {
        let files = paths.isEmpty ? try builtIn(in: work) : try expand(paths)
        return try files.map { Array(try Data(contentsOf: URL(fileURLWithPath: $0))) }
    }

    /// The `.sqlite` files of the folders among `paths`, and the other paths as they are.
    private static func expand(_ paths: [String]) throws -> [String] {
        try paths.flatMap { path -> [String] in
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
                return [path]
            }
            return try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".sqlite") }.sorted()
                .map { path + "/" + $0 }
        }
    }

    /// Writes the built-in seed stores into `folder`: `seed-shipped.sqlite` and `seed-wal.sqlite`
    /// in SeedKit's layout, `seed-coredata-shipped.sqlite` and `seed-coredata-wal.sqlite` in Core
    /// Data's; returns their paths.
    private static func builtIn(in folder: String) throws -> [String] {
        let model = try self.model()
        return try [StoreLayoutKind.seedKit, .coreData].flatMap { layout in
            try [true, false].map { shipped in
                let name = (layout == .coreData ? "seed-coredata-" : "seed-") + (shipped ? "shipped" : "wal")
                let path = folder + "/\(name).sqlite"
                try? StoreFiles.remove(path)
                var options = StoreOptions()
                options.layout = layout
                let store = try PersistentStore.open(at: path, model: model, options: options)
                try fill(store)
                if shipped { try store.compactForShipping() }
                return path
            }
        }
    }

    /// The built-in seed stores' model (the one Core Data–layout stores, which hold none, are read with).
    static func model() throws -> ObjectModel {
        try ModelBuilder("FuzzShop")
            .entity("Unit") { unit in
                unit.attribute("name", .string, optional: false)
                unit.toMany("items", "Item", inverse: "unit")
                unit.unique("name")
            }
            .entity("Tag") { tag in
                tag.attribute("name", .string, optional: false)
                tag.toMany("items", "Item", inverse: "tags")
                tag.unique("name")
            }
            .entity("Item") { item in
                item.attribute("sku", .string, optional: false)
                item.attribute("count", .integer64)
                item.attribute("small", .integer16)
                item.attribute("price", .double, indexed: true)
                item.attribute("ratio", .float)
                item.attribute("amount", .decimal)
                item.attribute("listed", .boolean)
                item.attribute("added", .date)
                item.attribute("photo", .binary)
                item.attribute("tracking", .uuid)
                item.attribute("page", .uri)
                item.toOne("unit", "Unit", inverse: "items")
                item.toMany("tags", "Tag", inverse: "items")
                item.toMany("lists", "List", inverse: "items")
                item.unique("sku")
            }
            .entity("Gadget", parent: "Item") { gadget in
                gadget.attribute("voltage", .double)
            }
            .entity("List") { list in
                list.attribute("code", .string, optional: false)
                list.toMany("items", "Item", inverse: "lists", ordered: true)
                list.unique("code")
            }
            .build()
    }

    /// Fills `store` with a few objects of every entity, every attribute set on some of them.
    private static func fill(_ store: PersistentStore) throws {
        let context = try ObjectContext(store: store)
        let units = try ["kg", "l", "piece"].map { name in
            let unit = try context.insert("Unit")
            try unit.set("name", name)
            return unit
        }
        let tags = try ["fresh", "sale", "bio'quoted"].map { name in
            let tag = try context.insert("Tag")
            try tag.set("name", name)
            return tag
        }
        let list = try context.insert("List")
        try list.set("code", "L-1")
        for index in 0..<24 {
            let item = try context.insert(index % 4 == 3 ? "Gadget" : "Item")
            try item.set("sku", "S-\(index)")
            try item.set("count", Int64(index) * 1_000_003)
            try item.set("small", Int16(index - 12))
            try item.set("price", Double(index) * 1.25)
            try item.set("ratio", Float(index) / 3)
            try item.set("amount", Decimal(string: "\(index).50"))
            try item.set("listed", index % 2 == 0)
            try item.set("added", Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 3600))
            if index % 3 == 0 { try item.set("photo", Data((0..<(index * 40)).map { UInt8(truncatingIfNeeded: $0) })) }
            try item.set("tracking", UUID(uuid: (UInt8(index), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)))
            try item.set("page", URL(string: "https://example.com/items/\(index)"))
            if index % 4 == 3 { try item.set("voltage", 230.0) }
            try item.setRelated("unit", to: units[index % units.count])
            try item.add(tags[index % tags.count], to: "tags")
            if index % 2 == 1 { try list.add(item, to: "items") }
        }
        try context.save()
    }
}
