// The repository the tests run from: its root and the files in it (sample data, fixtures,
// schemas), found from this file's own path so tests work from any working directory.
import Foundation

/// Paths in the SeedKit repository.
public enum Repository {
    /// The repository's root folder.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The path of `relativePath` in the repository (`"SeedData/Catalog"`).
    public static func path(_ relativePath: String) -> String {
        root.appendingPathComponent(relativePath).path
    }

    /// The URL of `relativePath` in the repository.
    public static func url(_ relativePath: String) -> URL {
        root.appendingPathComponent(relativePath)
    }
}
