// What a decimal attribute stores: the exact value as canonical decimal text (no exponent, no
// leading zeros, no trailing zeros after the point), as docs/Coercion.md and docs/StoreFormat.md
// say; the same value written another way re-imports unchanged.
import Foundation
import GraphStore
import Testing

@testable import SeedImport

@Suite struct DecimalStorageTests {
    @Test func aDecimalIsStoredAsItsExactCanonicalText() async throws {
        let fixture = try ImportFixture()
        try fixture.write(
            "Money.yaml",
            """
            name: Money
            entities:
              Payment:
                attributes: {code: {type: string, optional: false}, amount: decimal}
                unique: [[code]]
            """)
        try fixture.write(
            "payments.csv",
            "code,amount\na,12.50\nb,0012.5\nc,1.25e1\nd,1e3\ne,-0.0\nf,9007199254740993.10\ng,0.000001\n")
        try fixture.write(
            "plan.yaml",
            """
            model: Money.yaml
            store: Money.sqlite
            sources:
              - {file: payments.csv, entity: Payment, key: code}
            """)
        _ = try await fixture.run("plan.yaml")
        #expect(
            try ImportFixture.rows(
                fixture.path("Money.sqlite"), "SELECT code, typeof(amount), amount FROM Payment ORDER BY code") == [
                    "a|text|12.5", "b|text|12.5", "c|text|12.5", "d|text|1000", "e|text|0",
                    "f|text|9007199254740993.1", "g|text|0.000001",
                ])
        try fixture.write("payments.csv", "code,amount\na,12.5\nb,1.250e1\nd,1000.00\n")
        let again = try await fixture.run("plan.yaml")
        #expect(again.entities["Payment"]?.unchanged == 3)
        #expect(again.entities["Payment"]?.updated == 0)
    }
}
