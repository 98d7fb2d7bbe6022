// The files a first launch creates or finds beside the user's store, and how leftovers of a
// killed launch are cleared.
// Invariants: the temporary copy lives in the store's own directory (so a rename is atomic and
// never crosses file systems); it is only ever created by a loader holding the directory lock,
// so one found while holding it is a leftover.
import Foundation
import GraphStore

/// The paths a ``SeedLoader`` uses for one user store.
struct LoaderFiles: Sendable {
    /// The user's store.
    let store: String

    /// The directory holding the store (created when missing).
    var directory: String {
        let parent = (store as NSString).deletingLastPathComponent
        return parent.isEmpty ? "." : parent
    }

    /// Where a new store is written before it is renamed into place.
    var temporaryCopy: String { store + ".seedkit-copy" }

    /// Whether the user's store exists.
    var storeExists: Bool { FileManager.default.fileExists(atPath: store) }

    /// Removes what a killed, failed or cancelled launch may have left: the temporary copy, with
    /// its side files.
    func removeLeftovers() throws {
        do {
            try StoreFiles.remove(temporaryCopy)
        } catch let error as StoreError {
            throw SeedLoadError(.fileSystem, error.description)
        }
    }

    /// Creates the store's directory when it does not exist yet.
    func createDirectory() throws {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw SeedLoadError(.fileSystem, "cannot create the store's directory \(directory): \(error)")
        }
    }
}
