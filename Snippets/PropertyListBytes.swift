// Property lists: write a Core Data–style metadata dictionary as a binary property list (the same
// value always gives the same bytes), read it back, and see a damaged file refused with the byte
// offset of the problem; resolve a keyed archive without NSKeyedUnarchiver.
// Run it from the package's folder: `swift run PropertyListBytes`.

// snippet.hide
import Foundation

// snippet.show
import PropertyLists

// snippet.write
let metadata: PropertyListValue = [
    "NSStoreType": "SQLite",
    "NSPersistenceFrameworkVersion": 1344,
    "NSStoreModelVersionHashes": ["Item": .data(Data(repeating: 7, count: 32))],
    "NSStoreModelVersionIdentifiers": [""],
]
let bytes = BinaryPropertyListWriter().write(metadata)  // keys sorted by code point
let read = try BinaryPropertyListReader().read(bytes)
print(read["NSStoreModelVersionHashes"]?["Item"]?.dataValue?.count ?? 0)  // 32
// snippet.end

// snippet.errors
var damaged = Array(bytes)
damaged[damaged.count - 24] = 0x01  // the high byte of the trailer's object count
do {
    _ = try BinaryPropertyListReader().read(damaged)
} catch {
    print(error)  // byte 198: the property list declares 72057594037927948 objects, more than the limit of 10000
}
// snippet.end

// snippet.archive
let archive = BinaryPropertyListWriter().write([
    "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(1)],
    "$objects": [
        "$null", ["NSVariable": .uid(2), "$class": .uid(3)], "source", ["$classname": "NSVariableExpression"],
    ],
])
let root = try KeyedArchive(archive).root().objectValue
print(root?.className ?? "-", root?["NSVariable"]?.stringValue ?? "-")  // NSVariableExpression source
// snippet.end
