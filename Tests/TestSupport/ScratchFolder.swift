// Temporary folders for tests: a new, empty folder under the system's temporary directory with
// a recognisable name, or a copy of a sample folder of the repository without the stores that
// running the README's commands leaves in it.
import Foundation

/// A temporary folder a test owns.
public enum ScratchFolder {
    /// Creates a new empty folder named `prefix-<UUID>` (with `suffix`, an extension such as
    /// `.xcmappingmodel`) and returns its path.
    public static func make(_ prefix: String, suffix: String = "") throws -> String {
        let path = path(prefix, suffix: suffix)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A new path named `prefix-<UUID>` (with `suffix`) under the temporary directory, not created.
    public static func path(_ prefix: String, suffix: String = "") -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)\(suffix)").path
    }

    /// Copies the repository's folder `relativePath` (`"SeedData/Catalog"`) to a new folder
    /// named `prefix-<UUID>`, leaving out any SQLite store a run of the README left there, and
    /// returns the copy's path.
    public static func copy(ofRepositoryFolder relativePath: String, prefix: String) throws -> String {
        let folder = path(prefix)
        try FileManager.default.copyItem(atPath: Repository.path(relativePath), toPath: folder)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name.contains(".sqlite") {
            try FileManager.default.removeItem(atPath: folder + "/" + name)
        }
        return folder
    }
}
