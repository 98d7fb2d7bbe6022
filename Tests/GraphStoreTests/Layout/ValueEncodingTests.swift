// How layouts encode values: dates as seconds since 1970 or since 2001, decimals as exact text or
// REAL, UUIDs as 16-byte blobs — what is stored (storage class and value), that every value
// reads back as it was bound, and that the SQL conversions between two encodings give in SQLite
// exactly what binding in the other encoding stores.
import Foundation
import Testing

@testable import GraphStore

@Suite struct ValueEncodingTests {
    static let seedKit = ValueEncoding(dates: .unix, decimals: .exactText)
    static let coreData = ValueEncoding(dates: .reference2001, decimals: .real)
    static let date = Date(timeIntervalSince1970: 1_700_000_000.25)
    static let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!

    /// `SELECT typeof(?1), ?1` with `value` bound as `encoding` stores it: the storage class and
    /// the stored value as SQLite prints it, then the value read back as `type`.
    static func stored(_ value: AttributeValue, _ type: AttributeType, _ encoding: ValueEncoding) throws
        -> (storage: String, text: String, read: AttributeValue?)
    {
        let connection = try SQLiteConnection.inMemory(name: uniqueMemoryName())
        let statement = try connection.prepare("SELECT typeof(?1), CAST(?1 AS TEXT), ?1")
        statement.bind(value, at: 1, encoding: encoding)
        _ = try statement.step()
        return (
            statement.string(0), statement.string(1), statement.attributeValue(at: 2, type: type, encoding: encoding)
        )
    }

    @Test func datesCountFromTheLayoutsEpoch() throws {
        let unix = try Self.stored(.date(Self.date), .date, Self.seedKit)
        #expect(unix.storage == "real" && unix.text == "1700000000.25" && unix.read == .date(Self.date))
        let reference = try Self.stored(.date(Self.date), .date, Self.coreData)
        #expect(reference.storage == "real" && reference.text == "721692800.25" && reference.read == .date(Self.date))
    }

    @Test func decimalsAreExactTextOrReal() throws {
        let value = AttributeValue.decimal(try #require(Decimal(string: "12.50")))
        let text = try Self.stored(value, .decimal, Self.seedKit)
        #expect(text.storage == "text" && text.text == "12.5" && text.read == value)
        let real = try Self.stored(value, .decimal, Self.coreData)
        #expect(real.storage == "real" && real.text == "12.5" && real.read == value)
        // A decimal no double holds keeps its digits only as text.
        let exact = AttributeValue.decimal(try #require(Decimal(string: "0.1000000000000000000001")))
        #expect(try Self.stored(exact, .decimal, Self.seedKit).read == exact)
        #expect(try Self.stored(exact, .decimal, Self.coreData).read == .decimal(try #require(Decimal(string: "0.1"))))
    }

    @Test func uuidsAreSixteenByteBlobsInBoth() throws {
        for encoding in [Self.seedKit, Self.coreData] {
            let stored = try Self.stored(.uuid(Self.uuid), .uuid, encoding)
            #expect(stored.storage == "blob" && stored.read == .uuid(Self.uuid))
        }
    }

    @Test func holdsComparesAsTheEncodingStores() throws {
        let connection = try SQLiteConnection.inMemory(name: uniqueMemoryName())
        let statement = try connection.prepare("SELECT ?1")
        statement.bind(.date(Self.date), at: 1, encoding: Self.coreData)
        _ = try statement.step()
        #expect(statement.holds(.date(Self.date), at: 0, type: .date, encoding: Self.coreData))
        #expect(!statement.holds(.date(Self.date), at: 0, type: .date, encoding: Self.seedKit))
    }

    /// The SQL conversion of a value stored by `from` equals what `to` stores when binding it.
    @Test(arguments: [
        (AttributeValue.date(date), AttributeType.date), (.decimal(Decimal(string: "12.5")!), .decimal),
        (.string("kg"), .string), (.integer(7), .integer64), (.uuid(uuid), .uuid),
    ])
    func sqlConversionsMatchBinding(value: AttributeValue, type: AttributeType) throws {
        for (from, to) in [(Self.seedKit, Self.coreData), (Self.coreData, Self.seedKit), (Self.seedKit, Self.seedKit)] {
            let connection = try SQLiteConnection.inMemory(name: uniqueMemoryName())
            let converted = to.sqlExpression(converting: "?1", type: type, from: from)
            let statement = try connection.prepare("SELECT \(converted), ?2")
            statement.bind(value, at: 1, encoding: from)
            statement.bind(value, at: 2, encoding: to)
            _ = try statement.step()
            #expect(statement.attributeValue(at: 0, type: type, encoding: to) == value)
            #expect(statement.columnType(0) == statement.columnType(1))
            if from == to { #expect(converted == "?1") }
        }
        #expect(
            Self.coreData.sqlExpression(converting: "s.\"a\"", type: .date, from: Self.seedKit)
                == "(s.\"a\" - 978307200)")
        #expect(Self.seedKit.sqlExpression(converting: "x", type: .decimal, from: Self.coreData) == "CAST(x AS TEXT)")
    }

    @Test func nullStaysNull() throws {
        let connection = try SQLiteConnection.inMemory(name: uniqueMemoryName())
        let statement = try connection.prepare(
            "SELECT " + Self.coreData.sqlExpression(converting: "?1", type: .date, from: Self.seedKit))
        statement.bind(nil, at: 1, encoding: Self.seedKit)
        _ = try statement.step()
        #expect(statement.isNull(0) && statement.attributeValue(at: 0, type: .date, encoding: Self.coreData) == nil)
    }
}
