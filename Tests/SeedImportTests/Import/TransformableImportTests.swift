// A transformable attribute read from hex or base64 text (`binary:`): the plan passes validation
// and the import stores the codec's bytes as written.
import Foundation
import GraphStore
import Testing

@testable import SeedImport

@Suite struct TransformableImportTests {
    @Test(arguments: [("hex", "6869"), ("base64", "aGk=")])
    func aTransformableTakesItsBytesInTheEncodingGiven(encoding: String, text: String) async throws {
        let fixture = try ImportFixture()
        try fixture.write(
            "Blobs.yaml",
            """
            name: Blobs
            entities:
              Blob:
                attributes: {name: string, payload: transformable}
                unique: [[name]]
            """)
        try fixture.write("blobs.csv", "name,payload\na,\(text)\n")
        try fixture.write(
            "plan.yaml",
            """
            model: Blobs.yaml
            store: Blobs.sqlite
            sources:
              - {file: blobs.csv, entity: Blob, key: [name], attributes: {name: name, payload: {field: payload, binary: \(encoding)}}}
            """)
        let report = try await fixture.run("plan.yaml")
        #expect(report.entities["Blob"]?.inserted == 1)
        #expect(
            try ImportFixture.rows(fixture.path("Blobs.sqlite"), "SELECT name, hex(payload) FROM Blob") == ["a|6869"])
    }
}
