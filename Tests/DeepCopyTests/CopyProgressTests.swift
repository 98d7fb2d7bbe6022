// DeepCopyOptions.batchProgress: a step after every committed batch naming the entity (or
// relationship) written, rows that only grow up to the total counted before the first batch,
// and a last `done` step once the copy is complete — for paged batches and verbatim copies alike.
import Foundation
import GraphStore
import Synchronization
import Testing

@testable import DeepCopy

@Suite struct CopyProgressTests {
    /// Collects progress steps.
    final class Steps: Sendable {
        let all = Mutex<[CopyProgress]>([])
    }

    /// Copies the shop source into `target` in batches of `batchSize` and returns the steps.
    static func steps(into target: PersistentStore, batchSize: Int) throws -> [CopyProgress] {
        let steps = Steps()
        var options = DeepCopyOptions()
        options.batchSize = batchSize
        options.batchProgress = { step in steps.all.withLock { $0.append(step) } }
        _ = try DeepCopier(from: try DeepCopierTests.source(), to: target, options: options).run()
        return steps.all.withLock { $0 }
    }

    /// Source rows: 4 items, 2 units, 1 tag, 1 list; 3 item–tag pairs, 3 list–item pairs.
    static let totalRows = 14

    static func checkSteps(_ steps: [CopyProgress]) throws {
        let last = try #require(steps.last)
        #expect(last.phase == .done && last.rows == Self.totalRows && last.totalRows == Self.totalRows)
        #expect(last.fraction == 1 && last.report.entities["Item"]?.copied == 3)
        #expect(steps.allSatisfy { $0.totalRows == Self.totalRows && $0.rows <= $0.totalRows })
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $0.rows <= $1.rows && $0.seconds <= $1.seconds })
        #expect(steps.filter { $0.phase == .done }.count == 1)
        let objects = Set(steps.filter { $0.phase == .objects }.map(\.entity))
        #expect(objects.isSuperset(of: ["Item", "Unit", "Tag", "List"]))
        let links = Set(steps.filter { $0.phase == .links }.compactMap { $0.relationship.map { "\($0)" } })
        #expect(links.contains("tags") || links.contains("items"))
    }

    @Test func pagedBatchesReportEveryStepUpToTheTotal() throws {
        let target = try PersistentStore.inMemory(model: DeepCopierTests.model())
        let user = try ObjectContext(store: target)  // not empty: the copy pages, row by row
        try user.insert("Tag").set("name", "other")
        try user.save()
        let steps = try Self.steps(into: target, batchSize: 1)
        try Self.checkSteps(steps)
        #expect(steps.count > Self.totalRows / 2)
        let items = steps.filter { $0.phase == .objects && $0.entity == "Item" }
        #expect(items.count >= 4 && items.map(\.report.entities["Item"]?.copied).last == 3)
    }

    @Test func aVerbatimCopyReportsEachTable() throws {
        let target = try PersistentStore.inMemory(model: DeepCopierTests.model())
        try Self.checkSteps(try Self.steps(into: target, batchSize: 50_000))
    }

    @Test func progressValuesAreDerivedFromRows() {
        let step = CopyProgress(
            phase: .objects, entity: "Item", rows: 25, totalRows: 100, seconds: 2, report: CopyReport())
        #expect(step.fraction == 0.25 && step.rowsPerSecond == 12.5 && step.estimatedSecondsLeft == 6)
        let empty = CopyProgress(phase: .done, entity: "", rows: 0, totalRows: 0, seconds: 0, report: CopyReport())
        #expect(empty.fraction == 1 && empty.estimatedSecondsLeft == nil)
    }
}
