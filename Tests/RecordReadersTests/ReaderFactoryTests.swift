// Opening readers: formats from extensions, files on disk read in chunks, I/O errors,
// progress counters, and records crossing threads as Sendable values.
import Testing

@testable import RecordReaders

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Reader factory and inputs")
struct ReaderFactoryTests {
    @Test func formatsFromExtensions() {
        #expect(RecordFormat(path: "data/items.CSV") == .csv)
        #expect(RecordFormat(path: "a.tab") == .tsv)
        #expect(RecordFormat(path: "a.jsonl") == .ndjson)
        #expect(RecordFormat(path: "feeds/quakes.geojson") == .json)
        #expect(RecordFormat(path: "data/items.csv.gz") == .csv)
        #expect(RecordFormat(path: "a.tab.gz") == .tsv)
        #expect(RecordFormat(path: "A.JSONL.GZ") == .ndjson)
        #expect(RecordFormat(path: "items.gz") == nil)
        #expect(RecordFormat(path: ".gz") == nil)
        #expect(RecordFormat(path: "dir.x/items") == nil)
        #expect(RecordFormat(path: ".csv") == nil)
        #expect(throws: RecordReaderError.self) { try RecordReaderFactory.open(.bytes([], name: "noext")) }
    }

    @Test func readsFilesAndReportsProgress() throws {
        let file = "/tmp/seedkit-readers-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tsv"
        defer { unlink(file) }
        var text = "id\tname\n"
        for index in 0..<5000 { text += "\(index)\tname \(index)\n" }
        let handle = try #require(fopen(file, "w"))
        fputs(text, handle)
        fclose(handle)
        var reader = try RecordReaderFactory.open(.file(file), options: ReaderOptions(chunkSize: 1000))
        let name = try reader.resolve(FieldPath(parsing: "name"))
        var count = 0
        var lastProgress = 0
        while let record = try reader.next() {
            #expect(record[name]?.string == "name \(count)")
            #expect(reader.bytesConsumed >= lastProgress)
            lastProgress = reader.bytesConsumed
            count += 1
        }
        #expect(count == 5000)
        #expect(reader.recordsRead == 5000)
        #expect(reader.bytesConsumed == text.utf8.count)
        #expect(reader.fileName == file)
    }

    @Test func missingFileIsAnIOError() {
        #expect {
            _ = try RecordReaderFactory.open(.file("/nonexistent/items.csv"))
        } throws: { error in
            let error = error as? RecordReaderError
            return error?.kind == .io
                && error?.description == "/nonexistent/items.csv: cannot open: No such file or directory"
        }
    }

    @Test func copiedReadersStayMemorySafe() throws {
        // Copies share the input but never the record scratch: each keeps building whole,
        // well-formed records (which rows each copy sees is unspecified).
        var first = try CSVReader(
            .bytes(Array("a,b\n1,2\n3,4\n5,6\n7,8\n".utf8), name: "c.csv"), options: ReaderOptions(chunkSize: 4))
        _ = try first.next()
        var second = first
        var fields: [[String]] = []
        while let record = try second.next() { fields.append(record.fields.map(\.string)) }
        while let record = try first.next() { fields.append(record.fields.map(\.string)) }
        #expect(fields.allSatisfy { $0.count == 2 })
    }

    @Test func recordsCrossThreads() async throws {
        var reader = try RecordReaderFactory.open(.bytes(Array("[{\"a\": [1, 2]}, {\"a\": [3]}]".utf8), name: "t.json"))
        var batch: [SourceRecord] = []
        while let record = try reader.next() { batch.append(record) }
        let sent = batch
        let total = await Task.detached {
            sent.reduce(0) { $0 + ($1[path("a")]?.count ?? 0) }
        }.value
        #expect(total == 3)
    }
}
