// The import's key index is the one structure that grows with the input (DESIGN §9: memory
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
}
