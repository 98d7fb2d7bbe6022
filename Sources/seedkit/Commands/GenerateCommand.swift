// `seedkit generate MODEL -o DIR`: typed Swift code for a model's entities, one file per entity
// (or `--single-file FILE` for all of them, which the build plugin uses). Files whose text did not
// change are not rewritten, so a build does not recompile them; generated files of entities that
// are gone are removed. See docs/CodeGeneration.md.
import ArgumentParser
import Foundation
import SeedKitCodegen

/// Writes typed Swift code for a model's entities.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write typed Swift code for a model's entities.",
        discussion: """
            MODEL is an Xcode model, a model file or a store. One file per entity (Item.swift) is \
            written to DIR; an entity whose userInfo says seedkit.codegen: manual is left out. \
            Unchanged files are not rewritten, and files an earlier run generated for entities that \
            are gone are removed.
            """)

    @Argument(help: "The model (or store) whose entities to write.")
    var model: String

    @Option(name: [.customShort("o"), .customLong("output")], help: "The folder for one file per entity.")
    var output: String?

    @Option(help: "Write every entity into this one file instead.")
    var singleFile: String?

    @Option(help: "The access level of the generated declarations: public or internal.")
    var access: SwiftCodeGenerator.Access = .public

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        guard (output == nil) != (singleFile == nil) else {
            throw ValidationError("give either -o DIR or --single-file FILE")
        }
    }

    func run() throws {
        let generator: SwiftCodeGenerator
        do {
            generator = try SwiftCodeGenerator(model: try ModelSource.load(model), access: access)
        } catch {
            throw DataFailure.exit("\(error)")
        }
        do {
            if let singleFile {
                let url = URL(fileURLWithPath: singleFile)
                let file = generator.singleFile(named: url.lastPathComponent)
                let written = try GeneratedFiles.write(file, to: url)
                if !quiet { print(written ? "wrote \(singleFile)" : "\(singleFile) is up to date") }
            } else if let output {
                let report = try GeneratedFiles.replace(generator.entityFiles(), in: URL(fileURLWithPath: output))
                if !quiet { print(report.summary(folder: output)) }
            }
        } catch {
            throw DataFailure.exit("\(error)")
        }
    }
}
