// SeedKitPlugin: a SwiftPM build-tool plugin that builds an app's seed store at build time.
// For every plan file named `NAME.seed.yaml` (or `.seed.yml`, `.seed.json`) under the target's
// folder, it runs `seedkit build PLAN -o WORKDIR/NAME.sqlite --quiet`; SwiftPM bundles the
// store as a resource of the target (`Bundle.module.path(forResource: NAME, ofType: "sqlite")`).
// The plan's own folder (its model and sources) is the command's input, so editing any of those
// files rebuilds the seed; an unchanged folder is not rebuilt. See docs/FirstLaunch.md.
import Foundation
import PackagePlugin

/// Builds `NAME.sqlite` from each `NAME.seed.yaml` of a target, as a resource of the target.
@main
struct SeedKitPlugin: BuildToolPlugin {
    /// The suffixes that mark a plan file as a seed to build.
    static let planSuffixes = [".seed.yaml", ".seed.yml", ".seed.json"]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let seedkit = try context.tool(named: "seedkit").url
        return try Self.plans(under: target.directoryURL).map { plan in
            let name = Self.seedName(of: plan)
            let output = context.pluginWorkDirectoryURL.appending(path: name + ".sqlite")
            return .buildCommand(
                displayName: "Building seed store \(name).sqlite from \(plan.lastPathComponent)",
                executable: seedkit,
                arguments: ["build", plan.path, "-o", output.path, "--quiet"],
                inputFiles: try Self.files(under: plan.deletingLastPathComponent()),
                outputFiles: [output])
        }
    }

    /// The seed plans under `folder`, in path order.
    static func plans(under folder: URL) throws -> [URL] {
        try files(under: folder).filter { file in planSuffixes.contains { file.lastPathComponent.hasSuffix($0) } }
    }

    /// `Grocery.seed.yaml` → `Grocery`.
    static func seedName(of plan: URL) -> String {
        let name = plan.lastPathComponent
        let suffix = planSuffixes.first { name.hasSuffix($0) } ?? ""
        return String(name.dropLast(suffix.count))
    }

    /// Every regular file under `folder` (inside model bundles such as `.xcdatamodeld` too), sorted.
    static func files(under folder: URL) throws -> [URL] {
        guard
            let walker = FileManager.default.enumerator(
                at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        else { throw PluginError("cannot read \(folder.path)") }
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
