// Writes the benchmark catalog (docs/Performance.md) that tools/bench.py and the tests import:
// items.csv + lists.csv, catalog.json (`items` and `lists` arrays), items.ndjson +
// lists.ndjson and catalog.xml, in the shapes of SeedData/Catalog, with its model and plans
// beside them (and catalog-ndjson.yaml, derived from the JSON plan); or the items alone as one
// file of one format, for the reader benchmarks and the memory check. Files are written through
// buffers, so memory stays small whatever the count. Invariant: the output depends only on the
// count and the seed (not on the formats chosen), and the first M items of a catalog of N > M
// are those of the catalog of M.
import Foundation
import RecordReaders

/// The formats of the catalog directory.
enum CatalogFormat: String, CaseIterable, Sendable {
    case csv, json, ndjson, xml
}

/// Why the catalog could not be written.
struct CatalogError: Error, CustomStringConvertible {
    let description: String
}

enum CatalogWriter {
    /// Writes the catalog of `items` items and `items / 100` lists into `directory` (created when
    /// missing) in `formats`, with the model and plans of `planDirectory` (SeedData/Catalog);
    /// with `shuffled`, items come in a random order of their skus (lists name the same skus).
    static func writeCatalog(
        items: Int, seed: UInt64, formats: Set<CatalogFormat>, shuffled: Bool = false, planDirectory: String,
        to directory: String
    ) throws(CatalogError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CatalogError(description: "cannot create \(directory): \(error.localizedDescription)")
        }
        var files = try CatalogFiles(directory: directory, formats: formats)
        let pools = CatalogPools()
        var random = SeededGenerator(seed: seed)
        files.write("items.csv", "sku,name,price,quantity,listed,added,notes,unit,location,tags\n")
        files.write("lists.csv", "code,title,created,items\n")
        files.write("catalog.json", "{\n  \"items\": [\n")
        files.write("catalog.xml", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<catalog>\n")
        let order = shuffled ? KeyedPermutation(count: items, key: seed) : nil
        for index in 0..<items {
            let item = CatalogItem(sku: order?(index) ?? index, pools: pools, random: &random)
            if files.wants("items.csv") { files.write("items.csv", item.row(delimiter: ",")) }
            if files.writesJSON { files.writeJSON(item.json, index: index, lines: "items.ndjson") }
            if files.wants("catalog.xml") { files.write("catalog.xml", item.xml) }
        }
        files.write("catalog.json", "\n  ],\n  \"lists\": [\n")
        for index in 0..<items / 100 {
            let list = CatalogList(index: index, items: items, pools: pools, random: &random)
            files.write("lists.csv", list.csv)
            if files.writesJSON { files.writeJSON(list.json, index: index, lines: "lists.ndjson") }
            if files.wants("catalog.xml") { files.write("catalog.xml", list.xml) }
        }
        files.write("catalog.json", "\n  ]\n}\n")
        files.write("catalog.xml", "</catalog>\n")
        try files.close()
        try copyPlans(from: planDirectory, to: directory)
    }

    /// Writes at least `items` items as `format` to `path`, and more until the file holds at
    /// least `minBytes` bytes; returns how many it wrote. JSON is a document with an `items`
    /// array (records `items[*]`), XML a `<catalog>` of `<item>` elements (`catalog/item`).
    static func writeItems(format: RecordFormat, items: Int, minBytes: Int, seed: UInt64, to path: String)
        throws(CatalogError) -> Int
    {
        guard var out = FileWriter(path: path) else { throw CatalogError(description: "cannot create \(path)") }
        let pools = CatalogPools()
        var random = SeededGenerator(seed: seed)
        let delimiter = format == .tsv ? "\t" : ","
        let header = ["sku", "name", "price", "quantity", "listed", "added", "notes", "unit", "location", "tags"]
        let (opening, closing): (String, String) =
            switch format {
            case .csv, .tsv: (header.joined(separator: delimiter) + "\n", "")
            case .json: ("{\"items\": [\n", "\n]}\n")
            case .ndjson: ("", "")
            case .xml: ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<catalog>\n", "</catalog>\n")
            }
        out.write(opening)
        var index = 0
        while index < items || out.bytesWritten + closing.utf8.count < minBytes {
            let item = CatalogItem(sku: index, pools: pools, random: &random)
            switch format {
            case .csv, .tsv: out.write(item.row(delimiter: delimiter))
            case .json: out.write((index == 0 ? "" : ",\n") + item.json)
            case .ndjson: out.write(item.json + "\n")
            case .xml: out.write(item.xml)
            }
            index += 1
        }
        out.write(closing)
        guard out.close() else { throw CatalogError(description: "cannot write \(path)") }
        return index
    }

    /// Copies the model and the CSV, JSON and XML plans, and writes the NDJSON plan (the JSON
    /// plan reading items.ndjson and lists.ndjson).
    private static func copyPlans(from planDirectory: String, to directory: String) throws(CatalogError) {
        func read(_ name: String) throws(CatalogError) -> String {
            let path = planDirectory + "/" + name
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw CatalogError(description: "cannot read \(path) (--plans names SeedData/Catalog)")
            }
            return text
        }
        func write(_ text: String, _ name: String) throws(CatalogError) {
            do {
                try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
            } catch {
                throw CatalogError(description: "cannot write \(directory)/\(name): \(error.localizedDescription)")
            }
        }
        for name in ["Catalog.yaml", "catalog-csv.yaml", "catalog-json.yaml", "catalog-xml.yaml"] {
            try write(try read(name), name)
        }
        let ndjsonPlan = try read("catalog-json.yaml")
            .replacingOccurrences(
                of: "# Imports the same catalog from one JSON document with `items` and `lists` arrays.",
                with: "# Imports the same catalog from NDJSON: items.ndjson, then lists.ndjson."
            )
            .replacingOccurrences(
                of: "  - file: catalog.json\n    records: \"items[*]\"\n", with: "  - file: items.ndjson\n"
            )
            .replacingOccurrences(
                of: "  - file: catalog.json\n    records: \"lists[*]\"\n", with: "  - file: lists.ndjson\n")
        guard !ndjsonPlan.contains("catalog.json") else {
            throw CatalogError(description: "\(planDirectory)/catalog-json.yaml changed shape: update copyPlans")
        }
        try write(ndjsonPlan, "catalog-ndjson.yaml")
    }
}

/// The open files of the chosen formats, by name.
private struct CatalogFiles {
    private var writers: [String: FileWriter] = [:]

    init(directory: String, formats: Set<CatalogFormat>) throws(CatalogError) {
        let names: [CatalogFormat: [String]] = [
            .csv: ["items.csv", "lists.csv"], .json: ["catalog.json"], .ndjson: ["items.ndjson", "lists.ndjson"],
            .xml: ["catalog.xml"],
        ]
        for format in formats {
            for name in names[format] ?? [] {
                guard let writer = FileWriter(path: directory + "/" + name) else {
                    throw CatalogError(description: "cannot create \(directory)/\(name)")
                }
                writers[name] = writer
            }
        }
    }

    /// Whether the file `name` is written.
    func wants(_ name: String) -> Bool { writers[name] != nil }

    /// Whether a JSON or NDJSON file is written.
    var writesJSON: Bool { wants("catalog.json") || wants("items.ndjson") }

    /// Appends `text` to the file `name` when it is written.
    mutating func write(_ name: String, _ text: String) {
        writers[name]?.write(text)
    }

    /// Appends the `index`-th record of an array to catalog.json, and its line to the NDJSON file `lines`.
    mutating func writeJSON(_ json: String, index: Int, lines: String) {
        write("catalog.json", (index == 0 ? "    " : ",\n    ") + json)
        write(lines, json + "\n")
    }

    /// Flushes and closes every file.
    mutating func close() throws(CatalogError) {
        for (name, var writer) in writers where !writer.close() {
            throw CatalogError(description: "cannot write \(name)")
        }
    }
}
