// The import's key index is the one structure that grows with the input (docs/Performance.md: memory
// must not grow except for the key index), so the size of its entries is part of the memory
// budget: a million keys take a dictionary of 2^21 buckets.
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
        let index = KeyIndex()
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
            index[items, sku] = row
            #expect(index[items, sku] == row)
            #expect(index[lists, sku] == nil)
        }
        // A key moves between the tables without leaving a stale row behind.
        index[items, sku] = RowReference(entityID: 1, key: 2)
        #expect(index[items, sku] == RowReference(entityID: 1, key: 2))
        index[items, sku] = nil
        #expect(index[items, sku] == nil)
        for number in 0..<1000 {
            index[lists, .single(.integer(Int64(number)))] = RowReference(entityID: 2, key: Int64(number) * 3)
        }
        #expect((0..<1000).allSatisfy { index[lists, .single(.integer(Int64($0)))]?.key == Int64($0) * 3 })
    }
}
