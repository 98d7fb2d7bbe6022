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

    /// `key` as the index takes it.
    static func indexed<R>(_ key: KeyValue, _ body: (IndexKey) -> R) -> R {
        let bytes = KeyEncoding.bytes(of: key)
        return bytes.withUnsafeBytes { body(IndexKey(hash: KeyEncoding.hash($0), bytes: $0)) }
    }

    @Test func keyIndexKeepsEveryRowExactly() {
        let items = LookupID(entityIndex: 0, slots: [1])
        let lists = LookupID(entityIndex: 1, slots: [1])
        let index = KeyIndex(capacity: 10_000, lookups: 2) { $0 == items ? 0 : $0 == lists ? 1 : nil }
        let sku = KeyValue.single(.string("SKU-1"))
        // Rows anywhere in their ranges, replaced in place.
        let rows = [
            RowReference(entityID: 1, key: 1), RowReference(entityID: 65_535, key: (1 << 47) - 1),
            RowReference(entityID: 65_536, key: 7), RowReference(entityID: 3, key: Int64.max),
            RowReference(entityID: 4, key: -5),
        ]
        for row in rows {
            index.register(row, items, sku)
            #expect(index.find(items, sku) == .row(row, placeholder: false))
            #expect(index.find(lists, sku) == .absent)
        }
        Self.indexed(sku) { #expect(index.register(RowReference(entityID: 1, key: 2), 0, $0, placeholder: true)) }
        #expect(index.find(items, sku) == .row(RowReference(entityID: 1, key: 2), placeholder: true))
        #expect(index.fillPlaceholder(items, sku))
        #expect(!index.fillPlaceholder(items, sku))
        #expect(index.find(items, sku) == .row(RowReference(entityID: 1, key: 2), placeholder: false))
        Self.indexed(sku) { index.forget(0, $0) }
        #expect(index.find(items, sku) == .absent)
        // Many keys, some forgotten: the others stay found (removal shifts the probes back).
        for number in 0..<1000 {
            index.register(RowReference(entityID: 2, key: Int64(number) * 3), lists, .single(.integer(Int64(number))))
        }
        for number in stride(from: 0, to: 1000, by: 3) {
            Self.indexed(.single(.integer(Int64(number)))) { index.forget(1, $0) }
        }
        #expect(
            (0..<1000).allSatisfy { number in
                index.row(lists, .single(.integer(Int64(number))))
                    == (number % 3 == 0 ? nil : RowReference(entityID: 2, key: Int64(number) * 3))
            })
        #expect(index.count == 1000 - 334)
    }

    @Test func equalKeysHaveEqualBytes() {
        let twelve = KeyEncoding.bytes(of: KeyValue([.decimal(Decimal(string: "12.50") ?? 0)]))
        #expect(twelve == KeyEncoding.bytes(of: KeyValue([.decimal(Decimal(string: "12.5") ?? 0)])))
        #expect(KeyEncoding.bytes(of: .single(.double(-0.0))) == KeyEncoding.bytes(of: .single(.double(0.0))))
        #expect(KeyEncoding.bytes(of: .single(.integer(1))) != KeyEncoding.bytes(of: .single(.boolean(true))))
        #expect(KeyEncoding.bytes(of: .single(.string("1"))) != KeyEncoding.bytes(of: .single(.integer(1))))
        #expect(
            KeyEncoding.bytes(of: KeyValue([.string("A"), .string("BC")]))
                != KeyEncoding.bytes(of: KeyValue([.string("AB"), .string("C")])))
        // A key read from a record and the same key given as attribute values are one key.
        var batch = PreparedBatch()
        let parts: [AttributeValue] = [.string("Crème"), .integer(7), .date(Date(timeIntervalSince1970: 1.25))]
        batch.append(key: parts)
        let read = batch.keys[0]
        #expect(
            Array(batch.keyBytes[Int(read.firstByte)..<Int(read.firstByte + read.byteCount)])
                == KeyEncoding.bytes(of: KeyValue(parts)))
        #expect(batch.keyValue(read) == KeyValue(parts))
    }

    @Test func aFullIndexKeepsWhatItHoldsAndKnowsWhatItDoesNotKnow() {
        let units = LookupID(entityIndex: 0, slots: [0])
        let tags = LookupID(entityIndex: 1, slots: [0])
        let index = KeyIndex(capacity: 3, lookups: 2) { $0 == units ? 0 : $0 == tags ? 1 : nil }
        let keys = (1...4).map { KeyValue.single(.string("unit-\($0)")) }
        for (number, key) in keys.prefix(3).enumerated() {
            index.register(RowReference(entityID: 1, key: Int64(number + 1)), units, key)
        }
        #expect(index.find(units, keys[3]) == .absent)
        Self.indexed(keys[3]) { key in
            #expect(!index.canLearn(0, key))
            #expect(!index.register(RowReference(entityID: 1, key: 4), 0, key))
        }
        // Full: what it holds stays true, a key it does not hold may exist.
        #expect(index.find(units, keys[3]) == .unknown)
        #expect(index.row(units, keys[0]) == RowReference(entityID: 1, key: 1))
        index.register(RowReference(entityID: 1, key: 9), units, keys[0])
        #expect(index.row(units, keys[0]) == RowReference(entityID: 1, key: 9))
        #expect(index.find(tags, keys[0]) == .absent)
        #expect(index.count == 3)
        #expect(KeyIndex(capacity: 0, lookups: 1) { _ in 0 }.find(units, keys[0]) == .unknown)
    }

    @Test func aFullLookupTellsNewKeysFromKeysItMayHaveSeen() {
        let index = KeyIndex(capacity: 2, filterBits: 1 << 16, lookups: 2)
        let keys = (0..<100).map { KeyValue.single(.string("K-\($0)")) }
        #expect(index.filterByteCount == 0)
        for (number, key) in keys.enumerated() {
            _ = Self.indexed(key) { index.register(RowReference(entityID: 1, key: Int64(number + 1)), 0, $0) }
        }
        // Two keys held, the others in the filter (made when the index filled up: 8 KiB).
        #expect(index.count == 2)
        #expect(index.filterByteCount == 8192)
        #expect(Self.indexed(keys[0]) { index.seen(0, $0) } == .known)
        #expect(keys.dropFirst(2).allSatisfy { key in Self.indexed(key) { index.seen(0, $0) } == .maybe })
        #expect(Self.indexed(keys[5]) { index.seen(1, $0) } == .new)
        // A record set aside makes its key one the index may have seen.
        let aside = KeyValue.single(.string("aside"))
        Self.indexed(aside) { index.markSetAside(1, $0) }
        #expect(Self.indexed(aside) { index.seen(1, $0) } == .maybe)
        // Keys never written are mostly told new (a few share all their bits with written ones).
        let mistaken = (100..<2100).filter { number in
            Self.indexed(.single(.string("K-\(number)"))) { index.seen(0, $0) } == .maybe
        }.count
        #expect(mistaken < 60)
    }

    @Test func theEndOfTheLoadFreesTheFilterAndKeepsTheKeysHeld() {
        let index = KeyIndex(capacity: 2, filterBits: 1 << 16, lookups: 2)
        let keys = (0..<10).map { KeyValue.single(.string("K-\($0)")) }
        Self.indexed(keys[0]) { _ = index.register(RowReference(entityID: 1, key: 1), 0, $0, placeholder: true) }
        for (number, key) in keys.enumerated().dropFirst() {
            _ = Self.indexed(key) { index.register(RowReference(entityID: 1, key: Int64(number + 1)), 0, $0) }
        }
        #expect(index.filterByteCount == 8192)
        index.endLoad()
        #expect(index.filterByteCount == 0)
        #expect(index.count == 2)
        // The other lookup fills up after the load: it is full, and no filter is made for it.
        for (number, key) in keys.enumerated() {
            _ = Self.indexed(key) { index.register(RowReference(entityID: 2, key: Int64(number + 1)), 1, $0) }
        }
        #expect(index.filterByteCount == 0)
        #expect(Self.indexed(keys[9]) { index.find(1, $0) } == .unknown)
        #expect(
            Self.indexed(keys[1]) { index.find(1, $0) } == .row(RowReference(entityID: 2, key: 2), placeholder: false))
        // A placeholder held is still filled once.
        #expect(Self.indexed(keys[0]) { index.fillPlaceholder(0, $0) })
        #expect(!Self.indexed(keys[0]) { index.fillPlaceholder(0, $0) })
    }
}
