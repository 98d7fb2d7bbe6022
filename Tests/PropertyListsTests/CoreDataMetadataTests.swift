// The metadata dictionary of a Core Data store (Z_METADATA.Z_PLIST) written byte for byte: the
// expected bytes were produced by Python's plistlib (FMT_BINARY, sort_keys=True), an independent
// writer that lays files out as Core Foundation does; regenerate them with the snippet below.
//
//   import plistlib
//   h = lambda seed: bytes(((i * 7 + seed) & 0xFF) for i in range(32))
//   print(plistlib.dumps({...the dictionary of `metadata`...}, fmt=plistlib.FMT_BINARY, sort_keys=True).hex())
import Foundation
import PropertyLists
import Testing

@Suite struct CoreDataMetadataTests {
    /// A 32-byte entity version hash with a recognisable pattern.
    static func hash(_ seed: Int) -> PropertyListValue {
        .data(Data((0..<32).map { UInt8(($0 * 7 + seed) & 0xFF) }))
    }

    /// A metadata dictionary shaped like Core Data's, keys in Core Data's (unsorted) order.
    static let metadata: PropertyListValue = [
        "NSStoreType": "SQLite",
        "NSPersistenceFrameworkVersion": 1344,
        "NSStoreModelVersionHashes": ["Unit": hash(3), "Item": hash(1), "Location": hash(2)],
        "NSStoreModelVersionIdentifiers": [""],
        "NSStoreModelVersionHashesVersion": 3,
        "_NSAutoVacuumLevel": "2",
        "NSStoreModelVersionHashesDigest": "y4x3fR1nZr3C2Q==",
        "NSStoreModelVersionChecksumKey": "bQ3T1fz0Zk=",
    ]

    static let expectedHex =
        "62706c6973743030d80102030405060708090a0b12131416175f101d4e5350657273697374656e63654672616d65776f726b"
        + "56657273696f6e5f101e4e5353746f72654d6f64656c56657273696f6e436865636b73756d4b65795f10194e5353746f72"
        + "654d6f64656c56657273696f6e4861736865735f101f4e5353746f72654d6f64656c56657273696f6e4861736865734469"
        + "676573745f10204e5353746f72654d6f64656c56657273696f6e48617368657356657273696f6e5f101e4e5353746f7265"
        + "4d6f64656c56657273696f6e4964656e746966696572735b4e5353746f7265547970655f10125f4e534175746f56616375"
        + "756d4c6576656c1105405b6251335431667a305a6b3dd30c0d0e0f1011544974656d584c6f636174696f6e54556e69744f"
        + "102001080f161d242b323940474e555c636a71787f868d949ba2a9b0b7bec5ccd3da4f1020020910171e252c333a41484f"
        + "565d646b727980878e959ca3aab1b8bfc6cdd4db4f1020030a11181f262d343b424950575e656c737a81888f969da4abb2"
        + "b9c0c7ced5dc5f1010793478336652316e5a72334332513d3d1003a115505653514c6974655132000800190039005a0076"
        + "009800bb00dc00e800fd0100010c01130118012101260149016c018f01a201a401a601a701ae0000000000000201000000"
        + "0000000018000000000000000000000000000001b0"

    static var expected: Data {
        let hex = Array(expectedHex.utf8)
        return Data(
            stride(from: 0, to: hex.count, by: 2).map {
                UInt8(String(decoding: hex[$0...$0 + 1], as: UTF8.self), radix: 16) ?? 0
            })
    }

    @Test func metadataIsWrittenByteForByteAsPlistlibWritesIt() {
        let written = BinaryPropertyListWriter().write(Self.metadata)
        #expect(written.count == 512)
        #expect(written == Self.expected)
    }

    @Test func plistlibsBytesReadBackAsTheMetadata() throws {
        let read = try BinaryPropertyListReader().read(Self.expected)
        #expect(read == Self.metadata)
        #expect(read["NSStoreModelVersionHashes"]?["Item"]?.dataValue?.count == 32)
        #expect(read["NSPersistenceFrameworkVersion"] == 1344)
        #expect(read["NSStoreModelVersionIdentifiers"] == [""])
        #expect(read.dictionaryValue?.keys.first == "NSPersistenceFrameworkVersion")
        #expect(read.dictionaryValue?.keys.last == "_NSAutoVacuumLevel")
    }

    @Test func extraKeysKeepTheOutputReproducible() {
        var metadata = Self.metadata.dictionaryValue ?? [:]
        metadata["SeedKitSeedVersion"] = "2026.11"
        metadata["DefaultDataImported"] = true
        let first = BinaryPropertyListWriter().write(.dictionary(metadata))
        var reordered = PropertyListDictionary(metadata.reversed().map { ($0.key, $0.value) })
        reordered["SeedKitSeedVersion"] = "2026.11"
        #expect(BinaryPropertyListWriter().write(.dictionary(reordered)) == first)
        #expect(first != Self.expected)
    }
}
