// The staged pattern on CoreDataPlus's SampleModel3 (fixture F5, whose store is not among the
// fixtures: built here): SampleModel3 → _v2 inferred (+Pet, +User.pet), a hook after _v2 makes a
// Pet from each user's `petName`, then _v2 → _v3 inferred (−User.petName). The hook makes _v2 a
// pass boundary: two passes, and every user with a pet name has a Pet of that name.
import Foundation
import GraphStore
import ModelFiles
import Testing

@testable import StoreMigration

@Suite struct StagedHookTests {
    typealias Support = MigrationTestSupport

    @Test func aHookAfterTheMiddleVersionMovesPetNamesIntoPets() async throws {
        let scratch = try Scratch()
        let versions = try ModelVersionSet.load(
            from: Support.fixtures.appendingPathComponent("CoreDataPlus/SampleModel3/SampleModel3.xcdatamodeld").path)
        let users: [(String, String?)] = [("Ann", "Rex"), ("Bob", nil), ("Cid", "Tom")]
        let path = try Support.store(
            at: scratch.file("Users.sqlite"), model: try versions.model(named: "SampleModel3")
        ) { context in
            for (name, pet) in users {
                let user = try context.insert("User")
                try user.set("name", name)
                try user.set("petName", pet)
            }
        }
        var source = MigrationSource(versions: versions)
        source.hooks = [
            .after("SampleModel3_v2") { hook in
                let context = try hook.newContext()
                for user in try context.fetch(FetchRequest(entityName: "User")) {
                    guard let name = try user.get("petName", as: String.self) else { continue }
                    let pet = try context.insert("Pet")
                    try pet.set("name", name)
                    try user.setRelated("pet", to: pet)
                }
                try context.save()
            }
        ]
        var options = MigrationOptions()
        options.target = "SampleModel3_v3"
        let report = try await StoreMigrator.migrate(store: path, source: source, options: options)
        #expect(report.passes.map(\.to) == ["SampleModel3_v2", "SampleModel3_v3"])
        #expect(report.passes.map(\.kind) == [.inferred, .inferred])
        #expect(report.dataDropped == ["User.petName: 2 values (SampleModel3_v2 → SampleModel3_v3)"])

        let store = try PersistentStore.open(at: path, model: try versions.model(named: "SampleModel3_v3"))
        let context = try ObjectContext(store: store)
        var pets: [String: String] = [:]
        for user in try context.fetch(FetchRequest(entityName: "User")) {
            pets[try user.get("name", as: String.self) ?? ""] =
                try user.related("pet")?.get("name", as: String.self) ?? "-"
        }
        #expect(pets == ["Ann": "Rex", "Bob": "-", "Cid": "Tom"])
        #expect(try context.count(for: FetchRequest(entityName: "Pet")) == 2)
    }
}
