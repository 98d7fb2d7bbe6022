// A bounded cache in front of the destination tables a re-import's comparison (UnchangedRecords)
// resolves reference keys in: a catalog names the same few hundred units, locations or tags
// millions of times, so the stored row of each such key is looked up once per run rather than
// once per batch. A lookup that names more keys than the cache holds (lists naming items by
// sku) is not cached at all: its keys are looked up batch by batch, as without the cache.
// Invariants: at most `capacity` keys per lookup, never state per record of the run; an entry
// says what the store's rows say — the cached lookups of a table are forgotten when the object
// path changes or deletes a row of it; rows this run writes are above the watermark, never used
// by the comparison, so a key cached as having no usable row keeps having none when the run
// creates its destination.
import GraphStore

/// The stored rows of reference destinations, by lookup, for the comparison of a run's batches.
final class DestinationCache {
    /// The store's key of each key asked about, by lookup number (nil: no row the comparison may use).
    /// (Unchecked: only this class's methods touch it, never while another of them runs; the
    /// check cost more than the lookup on the comparison's hot path.)
    @exclusivity(unchecked) private var rows: [[KeyValue: Int64?]]
    /// Whether a lookup named more keys than the cache holds, by lookup number: it is not cached.
    private var overflowed: [Bool]
    /// Every lookup, by its number.
    private let lookups: [LookupID]
    /// The table of each lookup's entity, by lookup number.
    private let tables: [String]
    /// The highest key of a table before the run: rows above it are the run's own, which the
    /// comparison leaves to the object path.
    private let watermark: (String) -> Int64
    /// The number of each relationship mapping's destination lookup, by relationship number.
    private let referenceLookups: [Int]
    /// The most keys kept per lookup.
    let capacity: Int

    /// A cache of at most `capacity` keys per lookup of `mappings`, in a store laid out by
    /// `layout` whose tables held rows up to `watermark(table)` before the run.
    init(mappings: PlanMappings, layout: StoreLayout, capacity: Int, watermark: @escaping (String) -> Int64) {
        rows = Array(repeating: [:], count: mappings.lookups.count)
        overflowed = Array(repeating: false, count: mappings.lookups.count)
        lookups = mappings.lookups
        tables = mappings.lookups.map { layout.table(of: layout.model.entities[$0.entityIndex]) }
        self.watermark = watermark
        referenceLookups = mappings.referenceLookups
        self.capacity = capacity
    }

    /// The number of the lookup that finds the destinations of the relationship mapping `relationship`.
    func lookupNumber(of relationship: CompiledRelationship) -> Int {
        referenceLookups[relationship.number]
    }

    /// The lookup numbered `number`.
    func lookup(_ number: Int) -> LookupID { lookups[number] }

    /// The highest key of the table of the lookup numbered `number` that the run did not write.
    func ownRowsAbove(_ number: Int) -> Int64 { watermark(tables[number]) }

    /// The stored key of the row of lookup `number` with `key`: `.some(nil)` when it is known to
    /// have none the comparison may use, nil when the cache does not know.
    func row(_ number: Int, _ key: KeyValue) -> Int64?? {
        rows[number][key]
    }

    /// Keeps, for lookup `number`, the rows `found` of the keys `asked` (a key without a row
    /// has none); false when the lookup is not cached (its keys would outgrow the cache), so
    /// `found` has to be kept for the batch by the caller.
    func remember(_ number: Int, asked: Set<KeyValue>, found: [KeyValue: Int64]) -> Bool {
        guard !overflowed[number] else { return false }
        guard rows[number].count + asked.count <= capacity else {
            overflowed[number] = true
            rows[number] = [:]
            return false
        }
        for key in asked { rows[number][key] = .some(found[key]) }
        return true
    }

    /// The keys held for lookup `number` (for tests: the bound).
    func count(_ number: Int) -> Int { rows[number].count }

    /// Forgets the lookups of the tables whose rows `context` changes or deletes (its unsaved
    /// changes; rows it inserts are the run's own, which the comparison never uses).
    func forgetChanged(in context: ObjectContext, layout: StoreLayout) {
        let changed = Set((context.updatedObjects + context.deletedObjects).map { layout.table(of: $0.entity) })
        guard !changed.isEmpty else { return }
        for number in tables.indices where changed.contains(tables[number]) {
            rows[number] = [:]
        }
    }
}
