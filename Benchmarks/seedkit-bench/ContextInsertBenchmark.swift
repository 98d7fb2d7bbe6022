// Benchmark: insert N objects of a 7-attribute entity through a background context, saving
// every 5,000 and resetting the context, then print objects/s and peak RSS (issue: contexts).
import Foundation
import GraphStore

/// Inserts objects through `BackgroundContext` in batches.
enum ContextInsertBenchmark {
    static func run(count: Int, batchSize: Int, path: String) async throws {
        try StoreFiles.remove(path)
        let model = try ModelBuilder("Bench")
            .entity("Item") { item in
                item.attribute("sku", .string, optional: false)
                item.attribute("name", .string)
                item.attribute("price", .double)
                item.attribute("quantity", .integer32)
                item.attribute("listed", .boolean)
                item.attribute("added", .date)
                item.attribute("notes", .string)
                item.unique("sku")
            }
            .build()
        let store = try PersistentStore.open(at: path, model: model)
        let context = try BackgroundContext(store: store, name: "bench")
        let base = Date(timeIntervalSince1970: 1_700_000_000)
        let seconds = try await ProcessStats.timeAsync {
            var inserted = 0
            while inserted < count {
                let start = inserted
                let end = min(count, start + batchSize)
                try await context.perform { context in
                    let item = try context.entity(named: "Item")
                    func slot(_ name: String) -> Int { item.attribute(named: name)?.index ?? -1 }
                    let (sku, name, price, quantity) = (slot("sku"), slot("name"), slot("price"), slot("quantity"))
                    let (listed, added, notes) = (slot("listed"), slot("added"), slot("notes"))
                    for index in start..<end {
                        let object = try context.insert(item)
                        try object.setValue(.string("SKU-\(index)"), at: sku)
                        try object.setValue(.string("Item \(index)"), at: name)
                        try object.setValue(.double(Double(index % 1000) / 10), at: price)
                        try object.setValue(.integer(Int64(index % 500)), at: quantity)
                        try object.setValue(.boolean(index % 3 == 0), at: listed)
                        try object.setValue(.date(base.addingTimeInterval(Double(index))), at: added)
                        if index % 4 == 0 { try object.setValue(.string("note \(index)"), at: notes) }
                    }
                    try context.save()
                    context.reset()
                }
                inserted = end
            }
        }
        let rate = Double(count) / seconds
        print(
            String(
                format: "context insert: %d objects in %.2f s = %.0f objects/s, peak RSS %.1f MiB", count, seconds,
                rate, ProcessStats.peakResidentMiB()))
    }
}

extension ProcessStats {
    /// Seconds taken by an async `body`.
    static func timeAsync(_ body: () async throws -> Void) async rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try await body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}
