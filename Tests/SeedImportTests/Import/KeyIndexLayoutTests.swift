// The import's key index holds a bounded number of keys per lookup (docs/Performance.md
// "Memory"); the size of its entries is part of the memory budget, and what it says of a key
// must stay true once it is full.
import Foundation
import GraphStore
import Testing

@testable import SeedImport

@Suite struct KeyIndexLayoutTests {
    @Test func keysAndRowsStayCompact() {
        #expect(MemoryLayout<AttributeValue>.size == 17)
        #expect(MemoryLayout<KeyValue>.stride == 24)
        #expect(MemoryLayout<RowReference>.stride == 16)
    }

    @Test func equalKeysHashAlikeAndBoxedValuesCompare() {
        let decimal = KeyValue([.decimal(Decimal(string: "12.50") ?? 0)])
        #expect(decimal == KeyValue([.decimal(Decimal(string: "12.5") ?? 0)]))
        #expect(decimal.hashValue == KeyValue([.decimal(Decimal(string: "12.5") ?? 0)]).hashValue)
        #expect(KeyValue.single(.string("A-1")) == KeyValue([.string("A-1")]))
        #expect(KeyValue.single(.string("A-1")) != KeyValue.single(.string("A-2")))
        #expect(KeyValue([.string("A"), .integer(1)]) != KeyValue([.string("A"), .integer(2)]))
        #expect(KeyValue([.string("A"), .integer(1)]).description == "A, 1")
    }

    @Test func aMillionKeysSpreadOverTheIndex() {
        // The mixed hashes of sequential keys fill a table's low bits evenly (the buckets a
        // dictionary of 2^21 slots uses), whatever the seed.
        for seed in [0, 42, -7] {
            var buckets = Set<Int>()
            for number in 0..<100_000 {
                let key = KeyValue.single(.string("SKU-\(number)"))
                buckets.insert(key._rawHashValue(seed: seed) & (1 << 21 - 1))
            }
            #expect(buckets.count > 97_000)
        }
        var index: [KeyValue: Int] = [:]
        for number in 0..<10_000 { index[.single(.integer(Int64(number)))] = number }
        #expect((0..<10_000).allSatisfy { index[.single(.integer(Int64($0)))] == $0 })
        #expect(index[.single(.string("0"))] == nil)
    }

    @Test func keyIndexKeepsEveryRowExactly() {
        let index = KeyIndex(capacity: 10_000)
        let items = LookupID(entityIndex: 0, slots: [1])
        let lists = LookupID(entityIndex: 1, slots: [1])
        let sku = KeyValue.single(.string("SKU-1"))
        // Rows in the packed range, at its edges, and beyond it (kept whole in the wide table).
        let rows = [
            RowReference(entityID: 1, key: 1), RowReference(entityID: 65_535, key: (1 << 47) - 1),
            RowReference(entityID: 65_536, key: 7), RowReference(entityID: 2, key: 1 << 47),
            RowReference(entityID: 3, key: Int64.max), RowReference(entityID: 4, key: -5),
        ]
        for row in rows {
            #expect(index.register(row, items, sku))
            #expect(index.find(items, sku) == .row(row, placeholder: false))
            #expect(index.find(lists, sku) == .absent)
        }
        // A key moves between the tables without leaving a stale row behind.
        index.register(RowReference(entityID: 1, key: 2), items, sku, placeholder: true)
        #expect(index.find(items, sku) == .row(RowReference(entityID: 1, key: 2), placeholder: true))
        #expect(index.fillPlaceholder(items, sku))
        #expect(!index.fillPlaceholder(items, sku))
        #expect(index.find(items, sku) == .row(RowReference(entityID: 1, key: 2), placeholder: false))
        index.forget(items, sku)
        #expect(index.find(items, sku) == .absent)
        for number in 0..<1000 {
            let key = KeyValue.single(.integer(Int64(number)))
            index.register(RowReference(entityID: 2, key: Int64(number) * 3), lists, key)
        }
        #expect((0..<1000).allSatisfy { index.row(lists, .single(.integer(Int64($0))))?.key == Int64($0) * 3 })
    }

    @Test func aFullIndexKeepsWhatItHoldsAndKnowsWhatItDoesNotKnow() {
        let index = KeyIndex(capacity: 3)
        let units = LookupID(entityIndex: 0, slots: [0])
        let tags = LookupID(entityIndex: 1, slots: [0])
        let keys = (1...4).map { KeyValue.single(.string("unit-\($0)")) }
        for (number, key) in keys.prefix(3).enumerated() {
            #expect(index.register(RowReference(entityID: 1, key: Int64(number + 1)), units, key))
        }
        #expect(index.find(units, keys[3]) == .absent)
        #expect(!index.canLearn(units, keys[3]))
        #expect(!index.register(RowReference(entityID: 1, key: 4), units, keys[3]))
        // Full: what it holds stays true, a key it does not hold may exist.
        #expect(index.isFull(units))
        #expect(index.find(units, keys[3]) == .unknown)
        #expect(index.row(units, keys[0]) == RowReference(entityID: 1, key: 1))
        #expect(index.register(RowReference(entityID: 1, key: 9), units, keys[0]))
        #expect(index.row(units, keys[0]) == RowReference(entityID: 1, key: 9))
        #expect(index.find(tags, keys[0]) == .absent)
        #expect(index.count == 3)
        #expect(KeyIndex(capacity: 0).find(units, keys[0]) == .unknown)
    }

    @Test func aFullLookupTellsNewKeysFromKeysItMayHaveSeen() {
        let index = KeyIndex(capacity: 2, filterBits: 1 << 16)
        let lookup = LookupID(entityIndex: 0, slots: [0])
        let keys = (0..<100).map { KeyValue.single(.string("K-\($0)")) }
        #expect(index.filterByteCount == 0)
        for (number, key) in keys.enumerated() {
            index.register(RowReference(entityID: 1, key: Int64(number + 1)), lookup, key)
        }
        // Two keys held, the others in the filter (made when the index filled up: 8 KiB).
        #expect(index.count == 2)
        #expect(index.filterByteCount == 8192)
        #expect(index.seen(lookup, keys[0]) == .known && index.seen(lookup, keys[1]) == .known)
        #expect(keys.dropFirst(2).allSatisfy { index.seen(lookup, $0) == .maybe })
        #expect(index.seen(LookupID(entityIndex: 1, slots: [0]), keys[5]) == .new)
        // Keys never written are mostly told new (a few share all their bits with written ones).
        let mistaken = (100..<2100).filter { index.seen(lookup, .single(.string("K-\($0)"))) == .maybe }.count
        #expect(mistaken < 60)
    }
}
