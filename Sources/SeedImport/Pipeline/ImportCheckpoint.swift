// The checkpoint an import writes with every batch (in the batch's transaction), so a run that
// was killed can resume exactly after its last committed batch.
import Foundation
import GraphStore

/// Where a run stood after its last committed batch.
struct ImportCheckpoint: Codable, Equatable {
    /// The run's id (derived from the plan), so a resume only continues the same plan.
    var run: String
    /// The source being imported.
    var source: Int
    /// Records of that source already committed.
    var records: Int
    /// Batches committed so far.
    var batches: Int

    static let key = "import.checkpoint"

    /// The checkpoint as metadata text.
    func encoded() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// The checkpoint stored in `metadata`, if any.
    static func stored(in metadata: StoreMetadata) -> ImportCheckpoint? {
        guard let text = metadata[key] else { return nil }
        return try? JSONDecoder().decode(ImportCheckpoint.self, from: Data(text.utf8))
    }
}
