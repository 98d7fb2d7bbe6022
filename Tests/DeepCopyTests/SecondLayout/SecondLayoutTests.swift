// A store in a second layout (UpperCaseLayout: other names, entity numbers, encodings, companion
// columns and a key counter) works through the same code as SeedKit's own: contexts save,
// fault, fetch with predicates and prefetch, batch requests and runs work on it, and its rows
// hold what that layout says (dates since 2001, decimals as REAL, companion entity numbers,
// Z_MAX). Deep copies between the two layouts convert in SQL, and StoreDiff finds the copies
// equal to their sources, in both directions and for a merge into a changed store.
import Foundation
import GraphStore
import Testing
import TestSupport

@testable import DeepCopy

@Suite struct SecondLayoutTests {
    static let planted = GardenModel.planted

    /// The garden model (TestSupport's GardenModel) with Bed.visitors → Plant without an inverse.
    static func model() throws -> ObjectModel {
        try GardenModel.build(visitors: true)
    }

    /// Two beds, three plants (one a herb), two labels, every relationship set.
    static func fill(_ store: PersistentStore) throws {
        try GardenModel.fill(store, visitors: true)
    }

    static func folder() throws -> String { try CopyRecoveryTests.folder() }

    /// The first column of every row `sql` gives, as text.
    static func column(_ sql: String, in path: String) throws -> [String] {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        let statement = try connection.prepare(sql)
        var values: [String] = []
        while try statement.step() { values.append(statement.isNull(0) ? "nil" : statement.string(0)) }
        return values
    }

    @Test func contextsReadAndWriteAStoreOfTheSecondLayout() throws {
        let path = try Self.folder() + "/Garden.sqlite"
        try Self.fill(try PersistentStore.open(at: path, model: Self.model(), options: UpperCaseLayout.options))

        // The rows are laid out as the second layout says.
        #expect(try Self.column("SELECT ZPLANTED FROM ZBED WHERE ZNAME = 'North'", in: path) == ["721692800.5"])
        #expect(
            try Self.column("SELECT typeof(ZPRICE) || ' ' || ZPRICE FROM ZPLANT ORDER BY ZNAME", in: path)
                == ["nil", "real 1.25", "real 7.5"])
        #expect(try Self.column("SELECT length(ZCODE) FROM ZPLANT WHERE ZNAME = 'rose'", in: path) == ["16"])
        // Entity numbers in reverse name order: Plant 1, Label 2, Herb 3, Bed 4.
        #expect(try Self.column("SELECT Z_ENT FROM ZPLANT ORDER BY ZNAME", in: path) == ["1", "3", "1"])
        #expect(try Self.column("SELECT Z1_FAVORITE FROM ZPLANT WHERE ZNAME = 'rose'", in: path) == ["3"])
        #expect(try Self.column("SELECT Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT", in: path) == ["3", "2", "2"])
        #expect(try Self.column("SELECT ZNAME FROM ZPLANT ORDER BY Z_FOKZBED", in: path) == ["rose", "mint", "fern"])
        #expect(try Self.column("SELECT count(*) FROM Z_2PLANTS", in: path) == ["4"])
        #expect(try Self.column("SELECT count(*) FROM Z_4VISITORS", in: path) == ["1"])
        #expect(try Self.column("SELECT count(*) FROM sqlite_master WHERE name LIKE 'seedkit%'", in: path) == ["0"])

        // A store of a layout SeedKit does not know is refused unless the options name it.
        #expect(throws: StoreError.self) { _ = try PersistentStore.open(at: path) }
        let store = try PersistentStore.open(at: path, options: UpperCaseLayout.options)
        let context = try ObjectContext(store: store)
        func names(_ format: String, _ entity: String = "Plant") throws -> [String] {
            var request = FetchRequest(entityName: entity, predicate: try FetchPredicate(format: format))
            request.sortDescriptors = [FetchSortDescriptor("name")]
            return try context.fetch(request).map { try $0.get("name", as: String.self) ?? "" }
        }
        #expect(try names("price > 1.5") == ["rose"])
        #expect(
            try context.fetch(
                FetchRequest(entityName: "Bed", predicate: try FetchPredicate(format: "planted == %@", Self.planted))
            )
            .count == 1)
        #expect(try names("bed.name == 'North' AND ANY labels.text == 'sweet'") == ["mint", "rose"])
        #expect(try names("TRUEPREDICATE", "Herb") == ["mint"])
        let north = try #require(
            try context.fetch(FetchRequest(entityName: "Bed", predicate: .key("name") == "North")).first)
        try context.prefetch(keyPaths: ["plants.labels"], of: [north])
        #expect(
            try north.relatedObjects("plants").map { try $0.get("name", as: String.self) } == ["rose", "mint", "fern"])
        let rose = try north.relatedObjects("plants")[0]
        #expect(try rose.related("favorite")?.entity.name == "Herb")
        #expect(try rose.get("price", as: Decimal.self) == Decimal(string: "7.5"))
        #expect(try north.get("planted", as: Date.self) == Self.planted)

        // Batch requests and runs.
        let raised = try context.execute(
            BatchUpdateRequest(entityName: "Plant", predicate: .key("name") == "fern", values: ["price": .decimal(2)]))
        #expect(raised.count == 1)
        #expect(try Self.column("SELECT ZPRICE FROM ZPLANT WHERE ZNAME = 'fern'", in: path) == ["2.0"])
        let run = try context.beginRun(id: "test")
        let basil = try context.insert("Herb")
        try basil.set("name", "basil")
        try context.save()
        #expect(try Self.column("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 1", in: path) == ["4"])
        try context.undoRun(run)
        #expect(try names("TRUEPREDICATE", "Herb") == ["mint"])
        let removed = try context.execute(BatchDeleteRequest(entityName: "Label", predicate: .key("text") == "green"))
        #expect(removed.count == 1)
        #expect(try Self.column("SELECT count(*) FROM Z_2PLANTS", in: path) == ["2"])
    }

    @Test func deepCopiesBetweenLayoutsConvertAndCompareEqual() throws {
        let folder = try Self.folder()
        let seedKit = try PersistentStore.open(at: folder + "/SeedKit.sqlite", model: Self.model())
        try Self.fill(seedKit)
        let upperPath = folder + "/Upper.sqlite"
        _ = try DeepCopier.copy(from: seedKit, toNewStoreAt: upperPath, storeOptions: UpperCaseLayout.options)
        let upper = try PersistentStore.open(at: upperPath, options: UpperCaseLayout.options)
        #expect(try StoreDiff(seedKit, upper).differences() == [])
        #expect(try Self.column("SELECT ZPLANTED FROM ZBED WHERE ZNAME = 'North'", in: upperPath) == ["721692800.5"])
        #expect(try Self.column("SELECT Z1_FAVORITE FROM ZPLANT WHERE ZNAME = 'rose'", in: upperPath) == ["3"])
        #expect(try Self.column("SELECT Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT", in: upperPath) == ["3", "2", "2"])

        // And back into SeedKit's layout.
        let backPath = folder + "/Back.sqlite"
        _ = try DeepCopier.copy(from: upper, toNewStoreAt: backPath)
        let back = try PersistentStore.open(at: backPath)
        #expect(try StoreDiff(seedKit, back).differences() == [])
        #expect(
            try Self.column("SELECT \"price\" FROM \"Plant\" ORDER BY \"name\"", in: backPath) == [
                "nil", "1.25", "7.5",
            ])

        // A merge into a changed store of the other layout puts back what the source holds.
        try GardenModel.editRose(in: upper)
        #expect(try StoreDiff(seedKit, upper).differences() == GardenModel.roseEdits)
        var options = DeepCopyOptions()
        options.onConflict = .update
        let report = try DeepCopier(from: seedKit, to: upper, options: options).run()
        #expect(report.entities["Plant"]?.updated == 1)
        #expect(try StoreDiff(seedKit, upper).differences() == [])
    }

    /// A copy with a lineage into a store of the second layout keeps its record in that layout's
    /// tables (`zt_seed_ZPLANT`…), and the next one, from a changed source, respects what the
    /// target changed and deleted across the two encodings: a decimal the target changed stays,
    /// the source's new UUID and decimal (converted) are taken, a deleted plant stays deleted.
    @Test func aLineageCopyKeepsItsRecordInTheTargetsLayout() throws {
        let folder = try Self.folder()
        let seedKit = try PersistentStore.open(at: folder + "/SeedKit.sqlite", model: Self.model())
        try Self.fill(seedKit)
        var options = DeepCopyOptions()
        options.lineage = CopyLineage(policy: .keepTargetChanges)
        let upperPath = folder + "/Upper.sqlite"
        _ = try DeepCopier.copy(
            from: seedKit, toNewStoreAt: upperPath, storeOptions: UpperCaseLayout.options, options: options)
        #expect(
            try Self.column(
                "SELECT (SELECT count(*) FROM zt_seed_ZBED) + (SELECT count(*) FROM zt_seed_ZPLANT) + (SELECT count(*) FROM zt_seed_ZLABEL)",
                in: upperPath) == ["7"])

        let upper = try PersistentStore.open(at: upperPath, options: UpperCaseLayout.options)
        let target = try ObjectContext(store: upper)
        let plant = { (name: String, context: ObjectContext) in
            try #require(try context.fetch(FetchRequest(entityName: "Plant", predicate: .key("name") == name)).first)
        }
        try plant("rose", target).set("price", Decimal(3))
        try target.delete(try plant("fern", target))
        try target.save()
        let source = try ObjectContext(store: seedKit)
        let newCode = UUID(uuidString: "0F0F0F0F-C36C-495A-93FC-0C247A3E6E5F")
        try plant("rose", source).set("price", Decimal(string: "8.5"))
        try plant("rose", source).set("code", newCode)
        try plant("mint", source).set("price", Decimal(string: "2.5"))
        try source.save()

        let report = try DeepCopier(from: seedKit, to: upper, options: options).run()
        #expect(report.entities["Plant"]?.updated == 1 && report.entities["Plant"]?.kept == 1)
        #expect(report.entities["Plant"]?.notRestored == 1 && report.entities["Herb"]?.updated == 1)
        let after = try ObjectContext(store: upper)
        #expect(try plant("rose", after).get("price", as: Decimal.self) == Decimal(3))
        #expect(try plant("rose", after).get("code", as: UUID.self) == newCode)
        #expect(try plant("mint", after).get("price", as: Decimal.self) == Decimal(string: "2.5"))
        #expect(try after.fetch(FetchRequest(entityName: "Plant", predicate: .key("name") == "fern")).isEmpty)
        #expect(
            try Self.column(
                "SELECT (SELECT count(*) FROM zt_seed_ZBED) + (SELECT count(*) FROM zt_seed_ZPLANT) + (SELECT count(*) FROM zt_seed_ZLABEL)",
                in: upperPath) == ["7"])
    }
}
