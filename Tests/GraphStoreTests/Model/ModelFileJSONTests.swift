// Tests of the JSON model file every store embeds: the round trip model → file → model keeps the
// hash and the bytes.
import Testing

@testable import GraphStore

@Suite struct ModelFileJSONTests {
    @Test func roundTripKeepsTheHash() throws {
        let model = try CatalogModel.build()
        let json = try ModelFile(model).jsonData()
        let again = try ModelFile.parse(String(decoding: json, as: UTF8.self), syntax: .json, source: "round")
            .objectModel()
        #expect(again.versionHash == model.versionHash)
        #expect(try ModelFile(again).jsonData() == json)
    }
}
