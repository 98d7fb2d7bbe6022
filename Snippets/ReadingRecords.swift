// Streaming records: open a reader for a CSV, JSON or XML source and walk its records in bounded
// memory; a malformed file fails with the exact position of the first error.
// Run it from the package's folder: `swift run ReadingRecords`.

// snippet.show
import RecordReaders

// snippet.read
var reader = try RecordReaderFactory.open(
    .file("SeedData/Catalog/catalog.xml"), options: ReaderOptions(records: "catalog/item"))
let sku = try reader.resolve(FieldPath(parsing: "@sku"))
let name = try reader.resolve(FieldPath(parsing: "name"))
while let record = try reader.next() {
    print(record[sku]?.string ?? "-", record[name]?.string ?? "-", record.position)
}
// snippet.end

// snippet.errors
var bad = try RecordReaderFactory.open(.bytes(Array("sku,name\nA-1,Ap\"ples\n".utf8), name: "bad.csv"))
do {
    while try bad.next() != nil {}
} catch {
    print(error)  // bad.csv:2:7 (byte 15, record 1): quote in unquoted field
}
// snippet.end
