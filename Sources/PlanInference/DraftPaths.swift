// Where a draft's files are and how the plan names them: paths in a plan are relative to the
// plan's folder (docs/PlanFormat.md), so the sources and the model are written relative to the
// output folder, wherever the command ran.
import Foundation

/// The output folder, the model file, and the model's name.
struct DraftPaths {
    /// The folder receiving plan.yaml (and model.yaml), absolute and standardized.
    let folder: URL
    /// The model the plan names: the given one, or `folder/model.yaml`.
    let modelFile: String
    /// The drafted model's name (for a given model, its own).
    let modelName: String

    /// `path` (absolute, or relative to the current folder) relative to ``folder``.
    func relative(_ path: String) -> String {
        let target = URL(fileURLWithPath: path).standardizedFileURL.pathComponents
        let base = folder.pathComponents
        var shared = 0
        while shared < min(target.count, base.count), target[shared] == base[shared] { shared += 1 }
        let up = Array(repeating: "..", count: base.count - shared)
        return (up + target[shared...]).joined(separator: "/")
    }

    /// A model name from a folder name (`SeedData/Catalog` → `Catalog`, `grocery-data` →
    /// `GroceryData`); `Model` when nothing is left.
    static func modelName(forFolderOf file: String) -> String {
        let folder = URL(fileURLWithPath: file).standardizedFileURL.deletingLastPathComponent().lastPathComponent
        let words = InferenceNames.words(folder)
        guard !words.isEmpty, words.first?.first?.isLetter == true else { return "Model" }
        return words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}
