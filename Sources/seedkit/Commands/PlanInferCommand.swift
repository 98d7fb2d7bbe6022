// `seedkit plan infer FILE... -o DIR`: drafts DIR/plan.yaml (and DIR/model.yaml without --model)
// from the first records of sample files — fields mapped by name, types from the values, a key
// guessed, relationships for fields named after another entity — to check with
// `seedkit import DIR/plan.yaml --dry-run` and edit (docs/CLI.md).
import ArgumentParser
import Foundation
import PlanInference

/// Drafts a plan (and a model) from sample files.
struct PlanInferCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "infer",
        abstract: "Draft a plan (and a model) from the first records of sample files.",
        discussion: """
            Reads the first records of each file (CSV, TSV, JSON, NDJSON, XML) and writes DIR/plan.yaml, \
            and DIR/model.yaml unless --model names a model. JSON records are the root array's \
            elements or each array of objects in the root object; XML records are the root's \
            children, a source per element name. Comments in the files mark the guesses.
            """)

    @Argument(help: "The sample files, in the order the plan imports them.")
    var files: [String]

    @Option(help: "The model the plan maps to (a model file, an Xcode model or a store); without it, one is drafted.")
    var model: String?

    @Option(help: "The entity the records become (one source only).")
    var entity: String?

    @Option(help: "Which values of a JSON or XML file are records: items[*], catalog/item (one file only).")
    var records: String?

    @Option(help: "How many records of each source to read.")
    var sample: Int = 1000

    @Option(name: [.customShort("o"), .customLong("output")], help: "The folder for plan.yaml (and model.yaml).")
    var output: String

    @Flag(help: "Replace plan.yaml and model.yaml when they exist.")
    var force = false

    func validate() throws {
        guard sample >= 1 else { throw ValidationError("--sample must be at least 1") }
    }

    func run() throws {
        let inference = PlanInference(
            files: files, folder: output, modelPath: model, entity: entity, records: records, sampleSize: sample)
        let result: PlanInference.Result
        do {
            result = try inference.run(loadingModel: ModelSource.load)
        } catch {
            throw DataFailure.exit("\(error)")
        }
        var written = [(PlanInference.planFileName, result.plan)]
        if let model = result.model { written.append((PlanInference.modelFileName, model)) }
        let paths = written.map { (output as NSString).appendingPathComponent($0.0) }
        let existing = paths.filter(FileManager.default.fileExists)
        if !force, !existing.isEmpty {
            let verb = existing.count == 1 ? "exists" : "exist"
            throw DataFailure.exit("\(existing.joined(separator: " and ")) \(verb): give --force to replace")
        }
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
            for ((_, text), path) in zip(written, paths) {
                try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            }
        } catch {
            throw DataFailure.exit("cannot write into \(output): \(error.localizedDescription)")
        }
        for line in result.summary { print(line) }
        print("wrote \(paths.joined(separator: " and ")); check it with: seedkit import \(paths[0]) --dry-run")
    }
}
