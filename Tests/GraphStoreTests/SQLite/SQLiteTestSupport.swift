// Helpers for the SQLite layer's tests: temporary database files that clean up after themselves
// (including their -wal, -shm and -journal companions) and unique in-memory database names.
import Foundation

@testable import GraphStore
import TestSupport

/// A path for a database file in the temporary directory, removed with its companions by `remove()`.
struct TemporaryDatabasePath {
    let path: String

    init() {
        path =
            ScratchFolder.path("seedkit-sqlite", suffix: ".sqlite")
    }

    func remove() {
        try? StoreFiles.remove(path)
    }

    func size(suffix: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path + suffix)[.size] as? Int) ?? nil
    }
}

/// A name for a shared in-memory database no other test uses.
func uniqueMemoryName() -> String {
    "seedkit-test-\(UUID().uuidString)"
}
