// `seedkit-fuzz generate`: the benchmark catalog as a directory of data files, model and plans
// (what tools/bench.py and the tests import), or the items alone as one file of one format (what
// the reader benchmarks of docs/Readers.md read).
import ArgumentParser
import RecordReaders

struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write the benchmark catalog (docs/Performance.md).",
        discussion: """
            With --out: ITEMS items and ITEMS/100 shopping lists as items.csv + lists.csv, catalog.json, \
            items.ndjson + lists.ndjson and catalog.xml, with the model and plans of SeedData/Catalog \
            (and catalog-ndjson.yaml). With --file: the items alone, as one file of --format. The output \
            depends only on ITEMS and --seed.
            """)

    @Argument(help: "How many items to write (lists: one per 100 items).")
    var items: Int

    @Option(help: "The random seed.")
    var seed: UInt64 = 1

    @Option(help: "The directory to write the catalog into (created when missing).")
    var out: String?

    @Option(help: "With --out: the comma-separated formats to write, of csv,json,ndjson,xml.")
    var formats = "csv,json,ndjson,xml"

    @Flag(help: "With --out: items in a random order of their skus (a keyed permutation, constant memory).")
    var shuffle = false

    @Option(help: "With --out: the folder whose model and plans are copied beside the data.")
    var plans = "SeedData/Catalog"

    @Option(name: [.customShort("o"), .long], help: "The file to write the items alone into.")
    var file: String?

    @Option(help: "With --file: the file's format.")
    var format: RecordFormat?

    func validate() throws {
        guard items >= 1 else { throw ValidationError("ITEMS must be at least 1") }
        guard (out == nil) != (file == nil) else { throw ValidationError("give either --out DIR or --file FILE") }
        if file != nil, format == nil { throw ValidationError("--file needs --format") }
        if out != nil, format != nil { throw ValidationError("--format goes with --file; with --out use --formats") }
        _ = try chosenFormats()
    }

    func run() throws {
        let start = now()
        do {
            if let out {
                try CatalogWriter.writeCatalog(
                    items: items, seed: seed, formats: try chosenFormats(), shuffled: shuffle, planDirectory: plans,
                    to: out)
                printError(
                    "seedkit-fuzz: \(items) items, \(items / 100) lists, \(formats) in \(out) (\(format3(now() - start)) s)"
                )
            } else if let file, let format {
                _ = try CatalogWriter.writeItems(format: format, items: items, minBytes: 0, seed: seed, to: file)
            }
        } catch {
            printError("seedkit-fuzz: \(error)")
            throw ExitCode(1)
        }
    }

    /// The formats `--formats` names.
    private func chosenFormats() throws -> Set<CatalogFormat> {
        var chosen: Set<CatalogFormat> = []
        for name in formats.split(separator: ",").map({ String($0).filter { !$0.isWhitespace } }) where !name.isEmpty {
            guard let format = CatalogFormat(rawValue: name) else {
                throw ValidationError("--formats takes csv, json, ndjson and xml, not '\(name)'")
            }
            chosen.insert(format)
        }
        guard !chosen.isEmpty else { throw ValidationError("--formats names no format") }
        return chosen
    }
}
