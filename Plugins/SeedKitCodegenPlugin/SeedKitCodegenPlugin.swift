// SeedKitCodegenPlugin: a SwiftPM build-tool plugin that generates typed Swift code at build time
// from the models in a target's folder, as Xcode's "Class Definition" code generation does.
// For every model — a `.xcdatamodeld`, a `.xcdatamodel` outside one, or a model file named
// `NAME.model.yaml` (or `.model.yml`, `.model.json`) — anywhere under the target's folder
// (excluded folders too), it runs `seedkit generate MODEL --single-file WORKDIR/NAME.entities.swift
// --access public|internal --quiet` (public in a library target, internal in an executable or
// test target); SwiftPM compiles the file into the target. The model's files are the command's
// inputs, so editing the model regenerates the code. See docs/CodeGeneration.md.
import Foundation
import PackagePlugin

/// Generates `NAME.entities.swift` from each model of a target.
@main
struct SeedKitCodegenPlugin: BuildToolPlugin {
    /// The suffixes that mark a YAML or JSON file as a model to generate code from.
    static let modelFileSuffixes = [".model.yaml", ".model.yml", ".model.json"]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let seedkit = try context.tool(named: "seedkit").url
        // Public in a library, so the modules using it see the types; internal elsewhere, so
        // hand-written types of opted-out entities may stay internal too.
        let access = target.kind == .generic ? "public" : "internal"
        return try Self.models(under: target.directoryURL).map { model in
            let output = context.pluginWorkDirectoryURL.appending(path: Self.modelName(of: model) + ".entities.swift")
            return .buildCommand(
                displayName: "Generating Swift code for the entities of \(model.lastPathComponent)",
                executable: seedkit,
                arguments: ["generate", model.path, "--single-file", output.path, "--access", access, "--quiet"],
                inputFiles: try Self.files(in: model),
                outputFiles: [output])
        }
    }

    /// The models under `folder`, in path order: model bundles (not the versions inside a
    /// `.xcdatamodeld`) and model files.
    static func models(under folder: URL) throws -> [URL] {
        guard
            let walker = FileManager.default.enumerator(
                at: folder, includingPropertiesForKeys: [.isDirectoryKey])
        else { throw PluginError("cannot read \(folder.path)") }
        var models: [URL] = []
        for case let url as URL in walker {
            let name = url.lastPathComponent
            if name.hasSuffix(".xcdatamodeld") || name.hasSuffix(".xcdatamodel") {
                models.append(url)
                walker.skipDescendants()
            } else if modelFileSuffixes.contains(where: { name.hasSuffix($0) }) {
                models.append(url)
            }
        }
        return models.sorted { $0.path < $1.path }
    }

    /// `Catalog.model.yaml` → `Catalog`; `GroceryDude.xcdatamodeld` → `GroceryDude`.
    static func modelName(of model: URL) -> String {
        let name = model.lastPathComponent
        let suffix = (modelFileSuffixes + [".xcdatamodeld", ".xcdatamodel"]).first { name.hasSuffix($0) } ?? ""
        return String(name.dropLast(suffix.count))
    }

    /// The model's files: the file itself, or every regular file inside a model bundle, sorted.
    static func files(in model: URL) throws -> [URL] {
        guard (try model.resourceValues(forKeys: [.isDirectoryKey])).isDirectory == true else { return [model] }
        guard
            let walker = FileManager.default.enumerator(
                at: model, includingPropertiesForKeys: [.isRegularFileKey])
        else { throw PluginError("cannot read \(model.path)") }
        var files: [URL] = []
        for case let file as URL in walker
        where try file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true {
            files.append(file)
        }
        return files.sorted { $0.path < $1.path }
    }
}

/// A plugin failure, shown by SwiftPM as the reason.
struct PluginError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
