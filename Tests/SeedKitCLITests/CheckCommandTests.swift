// `seedkit check FILE` (docs/CLI.md): exit 0 with the record count for a well-formed file; exit 1
// with each broken CSV record's position (file:line:column, byte offset, record) on its own
// stderr line and their count, or the error that ended reading on one line; exit 2 on a usage
// error; `--json` is exactly {"records", "broken", "errors", "bytes", "seconds"}.
import Foundation
import Testing
import TestSupport

@Suite struct CheckCommandTests {
    /// A fresh empty folder holding `files` (name → contents).
    static func folder(_ files: [String: String]) throws -> String {
        let folder = try ScratchFolder.make("seedkit-check")
        for (name, contents) in files {
            try Data(contents.utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
        }
        return folder
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    static let good = "sku,name,price\nA-1,Apples,2.49\nA-2,\"Pears, green\",1.20\nA-3,\"Two\nlines\",0.5\n"

    @Test func aGoodCSVFilePrintsItsRecordCountAndExits0() throws {
        let folder = try Self.folder(["good.csv": Self.good])
        let checked = try CLIProcess.run(["check", "good.csv"], in: folder)
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(checked.stdout == "good.csv: 3 records\n")
        #expect(checked.stderr.isEmpty)
    }

    @Test func theJSONReportHasExactlyRecordsBytesAndSeconds() throws {
        let folder = try Self.folder(["good.csv": Self.good])
        let checked = try CLIProcess.run(["check", "good.csv", "--json"], in: folder)
        #expect(checked.status == 0, "\(checked.stderr)")
        let report = try Self.json(checked.stdout)
        #expect(Set(report.keys) == ["records", "broken", "errors", "bytes", "seconds"])
        #expect(report["records"] as? Int == 3)
        #expect(report["broken"] as? Int == 0)
        #expect((report["errors"] as? [Any])?.isEmpty == true)
        #expect(report["bytes"] as? Int == Self.good.utf8.count)
        let seconds = try #require(report["seconds"] as? Double)
        #expect(seconds >= 0 && seconds < 60)
    }

    @Test func quotesInsideUnquotedFieldsAreCharactersUnlessStrict() throws {
        // "a,b\n" is bytes 0–3; on line 2 the quote is column 4, byte 7, in record 1.
        let folder = try Self.folder(["inches.csv": "a,b\n1,x\"y\n2,z\n"])
        let lenient = try CLIProcess.run(["check", "inches.csv"], in: folder)
        #expect(lenient.status == 0, "\(lenient.stderr)")
        #expect(lenient.stdout == "inches.csv: 2 records\n")
        let strict = try CLIProcess.run(["check", "inches.csv", "--strict"], in: folder)
        #expect(strict.status == 1)
        #expect(strict.stdout.isEmpty)
        #expect(
            strict.stderr == """
                seedkit: inches.csv:2:4 (byte 7, record 1): quote in unquoted field
                seedkit: inches.csv: 1 broken record, 1 record read

                """)
    }

    @Test func everyBrokenRecordIsListedWithItsPositionAndCounted() throws {
        let folder = try Self.folder(["bad.csv": "a,b\n1,2\n3,4,5\n6,\"open\n7,8\n9\n"])
        let checked = try CLIProcess.run(["check", "bad.csv"], in: folder)
        #expect(checked.status == 1)
        #expect(checked.stdout.isEmpty)
        #expect(
            checked.stderr == """
                seedkit: bad.csv:3:5 (byte 12, record 2): too many fields: 3, expected 2
                seedkit: bad.csv:4:3 (byte 16, record 3): unterminated quoted field
                seedkit: bad.csv:6:2 (byte 27, record 5): too few fields: 1, expected 2
                seedkit: bad.csv: 3 broken records, 2 records read

                """)
        let capped = try CLIProcess.run(["check", "bad.csv", "--max-errors", "1"], in: folder)
        #expect(capped.status == 1)
        #expect(
            capped.stderr == """
                seedkit: bad.csv:3:5 (byte 12, record 2): too many fields: 3, expected 2
                seedkit: bad.csv: 3 broken records (the first 1 listed), 2 records read

                """)

        let json = try CLIProcess.run(["check", "bad.csv", "--json"], in: folder)
        #expect(json.status == 1)
        #expect(json.stderr == "seedkit: bad.csv: 3 broken records, 2 records read\n")
        let report = try Self.json(json.stdout)
        #expect(report["records"] as? Int == 2)
        #expect(report["broken"] as? Int == 3)
        let errors = try #require(report["errors"] as? [[String: Any]])
        #expect(errors.map { $0["line"] as? Int } == [3, 4, 6])
        #expect(errors.map { $0["byteOffset"] as? Int } == [12, 16, 27])
        #expect(errors.map { $0["record"] as? Int } == [2, 3, 5])
        #expect(errors.map { $0["raw"] as? String } == ["3,4,5", "6,\"open", "9"])
        #expect(errors[1]["reason"] as? String == "unterminated quoted field")
    }

    @Test func anErrorThatEndsReadingIsTheLastLine() throws {
        let folder = try Self.folder(["mixed.json": "[{\"a\": 1}, {\"a\": ]"])
        let checked = try CLIProcess.run(["check", "mixed.json"], in: folder)
        #expect(checked.status == 1)
        #expect(checked.stderr.hasPrefix("seedkit: mixed.json:1:"))
        #expect(checked.stderr.split(separator: "\n").count == 1)
    }

    @Test func anUnterminatedQuoteNamesWhereTheFieldStarts() throws {
        let folder = try Self.folder(["open.csv": "sku,name\nA-1,\"Apples\n"])
        let checked = try CLIProcess.run(["check", "open.csv"], in: folder)
        #expect(checked.status == 1)
        #expect(
            checked.stderr == """
                seedkit: open.csv:2:5 (byte 13, record 1): unterminated quoted field
                seedkit: open.csv: 1 broken record, 0 records read

                """)
    }

    @Test func raggedRowsAreBrokenUnlessAllowed() throws {
        let folder = try Self.folder(["ragged.csv": "a,b\n1,2\n3,4,5\n"])
        let strict = try CLIProcess.run(["check", "ragged.csv"], in: folder)
        #expect(strict.status == 1)
        #expect(strict.stderr.hasPrefix("seedkit: ragged.csv:3:"))
        #expect(strict.stderr.contains("record 2"))
        #expect(strict.stderr.hasSuffix("seedkit: ragged.csv: 1 broken record, 1 record read\n"))
        let allowed = try CLIProcess.run(["check", "ragged.csv", "--allow-ragged"], in: folder)
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(allowed.stdout == "ragged.csv: 2 records\n")
    }

    @Test func gzipFilesAreReadInflated() throws {
        let folder = try Self.folder(["rows.csv": Self.good])
        let compressed = try ChildProcess.runTool(
            "sh", ["-c", "gzip -c rows.csv > rows.csv.gz && cp rows.csv.gz rows.geojson.gz"], in: folder)
        #expect(compressed.status == 0, "\(compressed.stderr)")
        let checked = try CLIProcess.run(["check", "rows.csv.gz", "--json"], in: folder)
        #expect(checked.status == 0, "\(checked.stderr)")
        let report = try Self.json(checked.stdout)
        #expect(report["records"] as? Int == 3)
        let size = try FileManager.default.attributesOfItem(atPath: folder + "/rows.csv.gz")[.size] as? Int
        #expect(report["bytes"] as? Int == size)
        // The inner extension names the format: this is CSV text, so as JSON it is an error.
        let json = try CLIProcess.run(["check", "rows.geojson.gz"], in: folder)
        #expect(json.status == 1)
        #expect(json.stderr.hasPrefix("seedkit: rows.geojson.gz:1:1 "))
    }

    @Test func otherFormatsAndDialects() throws {
        let folder = try Self.folder([
            "rows.txt": "a\tb\n1\t2\n3\t4\n",
            "semi.csv": "a;b\n1;2\n",
            "plain.csv": "1,2\n3,4\n5,6\n",
            "lines.ndjson": "{\"a\": 1}\n{\"a\": 2}\n",
            "bad.json": "{\"items\": [{\"a\": 1}, {\"a\": }]}",
        ])
        #expect(
            try CLIProcess.run(["check", "rows.txt", "--format", "tsv"], in: folder).stdout == "rows.txt: 2 records\n")
        #expect(
            try CLIProcess.run(["check", "semi.csv", "--delimiter", ";"], in: folder).stdout == "semi.csv: 1 record\n")
        #expect(
            try CLIProcess.run(["check", "plain.csv", "--no-header"], in: folder).stdout == "plain.csv: 3 records\n")
        #expect(try CLIProcess.run(["check", "lines.ndjson"], in: folder).stdout == "lines.ndjson: 2 records\n")
        let bad = try CLIProcess.run(["check", "bad.json", "--records", "items[*]"], in: folder)
        #expect(bad.status == 1)
        #expect(bad.stderr.hasPrefix("seedkit: bad.json:1:"))
        #expect(bad.stderr.split(separator: "\n").count == 1)
    }

    @Test func theSampleSourcesReadCleanly() throws {
        let catalog = ExitCodeTests.repository.appendingPathComponent("SeedData/Catalog").path
        let quakes = ExitCodeTests.repository.appendingPathComponent("SeedData/Quakes").path
        let grocery = ExitCodeTests.repository.appendingPathComponent("SeedData/GroceryDude").path
        let cases: [(String, [String], Int)] = [
            (catalog + "/items.csv", [], 5),
            (catalog + "/lists.csv", [], 2),
            (catalog + "/catalog.json", ["--records", "items[*]"], 5),
            (catalog + "/catalog.json", ["--records", "lists[*]"], 2),
            (catalog + "/catalog.xml", ["--records", "catalog/item"], 5),
            (quakes + "/feed.json", ["--records", "features[*]"], 4),
        ]
        for (file, flags, count) in cases {
            let checked = try CLIProcess.run(["check", file, "--json"] + flags)
            #expect(checked.status == 0, "\(file): \(checked.stderr)")
            #expect(try Self.json(checked.stdout)["records"] as? Int == count, "\(file) \(flags)")
        }
        let xml = try CLIProcess.run(["check", grocery + "/DefaultData.xml", "--records", "items/item"])
        #expect(xml.status == 0, "\(xml.stderr)")
        #expect(xml.stdout.hasSuffix(" records\n"))
    }

    @Test func aMissingFileIsADataFailure() throws {
        let folder = try Self.folder([:])
        let missing = try CLIProcess.run(["check", "nothing.csv"], in: folder)
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("seedkit: nothing.csv: "))
        #expect(missing.stderr.split(separator: "\n").count == 1)
    }

    @Test func usageErrorsExit2WithTheReasonFirst() throws {
        let folder = try Self.folder(["notes.txt": "x\n", "good.csv": Self.good])
        let cases: [([String], String)] = [
            (["check"], "Missing expected argument '<file>'"),
            (["check", "notes.txt"], "cannot tell the format of 'notes.txt' from its extension: use --format"),
            (["check", "good.csv", "--format", "yaml"], "unknown format 'yaml': use csv, tsv, json, ndjson or xml"),
            (["check", "good.csv", "--delimiter", "ab"], "the delimiter must be one ASCII character (or 'tab')"),
            (["check", "good.csv", "--frobnicate"], "Unknown option '--frobnicate'"),
        ]
        for (arguments, reason) in cases {
            let result = try CLIProcess.run(arguments, in: folder)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stdout.isEmpty, "\(arguments)")
            let first = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init)
            #expect(first == "Error: " + reason, "\(arguments): \(result.stderr)")
        }
    }
}
