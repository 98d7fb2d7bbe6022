// Plan files (docs/PlanFormat.md): reading a YAML or JSON plan into an `ImportPlan`
// plus the positions of everything in it. Both syntaxes go through Yams' node tree, so every
// problem, syntax or schema, names `plan.yaml:line:column`.
// Invariants: parsing reports every problem it finds (never only the first), and a plan is only
// returned when there were none; relative paths in the plan start from the plan file's folder.
import Foundation
import GraphStore
import Yams

/// The syntax of a plan file.
public enum PlanSyntax: String, Sendable, Hashable, CaseIterable {
    /// YAML 1.1 (what libyaml reads), the default.
    case yaml
    /// JSON, read by the same parser (JSON is YAML's flow style), so positions work the same.
    case json

    /// The syntax a file name's extension names: `.json` is JSON, anything else (`.yaml`, `.yml`) YAML.
    public init(path: String) {
        self = path.lowercased().hasSuffix(".json") ? .json : .yaml
    }
}

/// A parsed plan file: the plan and where each of its elements was written.
///
/// ```swift
/// let file = try PlanFile.load(from: "Seeds/plan.yaml")
/// let model = try ModelLoader.load(from: file.plan.resolve(file.plan.model ?? "Model.json"))
/// let problems = file.validate(model: model)
/// if problems.contains(where: { !$0.isWarning }) { throw PlanErrors(problems) }
/// ```
public struct PlanFile: Sendable {
    /// The plan, with ``ImportPlan/baseDirectory`` set to the file's folder.
    public var plan: ImportPlan
    /// Where each element of the plan was written.
    public var positions: PlanPositions

    /// A plan and its positions.
    public init(plan: ImportPlan, positions: PlanPositions) {
        self.plan = plan
        self.positions = positions
    }

    /// Reads the plan file at `path`; its syntax comes from its extension (`.json`, else YAML).
    ///
    /// - Throws: ``PlanErrors`` with every problem: an unreadable file, a syntax error, unknown
    ///   keys, values of the wrong type, missing required keys.
    public static func load(from path: String) throws(PlanErrors) -> PlanFile {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw PlanErrors([PlanError(file: path, message: "cannot read the plan file: \(reason(error))")])
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw PlanErrors([PlanError(file: path, message: "the plan file is not valid UTF-8")])
        }
        return try parse(text, syntax: PlanSyntax(path: path), source: path, baseDirectory: folder(of: path))
    }

    /// Parses plan text.
    ///
    /// - Parameters:
    ///   - text: the plan, YAML or JSON.
    ///   - syntax: which of the two, for messages.
    ///   - source: the name problems give for the file (`plan.yaml`).
    ///   - baseDirectory: the folder relative paths in the plan start from.
    /// - Throws: ``PlanErrors`` with every problem found.
    public static func parse(
        _ text: String, syntax: PlanSyntax = .yaml, source: String = "plan", baseDirectory: String = "."
    ) throws(PlanErrors) -> PlanFile {
        try parse(
            text, syntax: syntax, source: source, baseDirectory: baseDirectory,
            nodeBudget: PlanFileDecoder.defaultNodeBudget)
    }

    /// ``parse(_:syntax:source:baseDirectory:)`` visiting at most `nodeBudget` nodes.
    static func parse(
        _ text: String, syntax: PlanSyntax, source: String, baseDirectory: String, nodeBudget: Int
    ) throws(PlanErrors) -> PlanFile {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            throw PlanErrors([syntaxError(error, in: text, syntax: syntax, source: source)])
        }
        var decoder = PlanFileDecoder(file: source, nodeBudget: nodeBudget)
        let plan = decoder.decodePlan(root, baseDirectory: baseDirectory)
        guard decoder.errors.isEmpty else { throw PlanErrors(PlanErrors.inFileOrder(decoder.errors)) }
        return PlanFile(plan: plan, positions: decoder.positions)
    }

    /// Checks the plan against `model` (see ``PlanValidator``), naming positions in this file.
    public func validate(model: ObjectModel, checksFiles: Bool = true) -> [PlanError] {
        PlanValidator(checksFiles: checksFiles).validate(plan, model: model, positions: positions)
    }

    /// The folder of `path`: `.` for a bare file name.
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func reason(_ error: any Error) -> String {
        let cocoa = error as NSError
        if cocoa.domain == NSCocoaErrorDomain, cocoa.code == NSFileReadNoSuchFileError { return "no such file" }
        return cocoa.localizedDescription
    }

    /// A Yams error as a plan problem at the position libyaml reported.
    private static func syntaxError(
        _ error: any Error, in text: String, syntax: PlanSyntax, source: String
    ) -> PlanError {
        let kind = syntax == .json ? "invalid JSON" : "invalid YAML"
        func problem(_ message: String, _ position: PlanPosition?) -> PlanError {
            PlanError(file: source, position: position, message: message)
        }
        guard let error = error as? YamlError else { return problem("\(kind): \(error)", nil) }
        switch error {
        case .scanner(let context, let message, let mark, _), .parser(let context, let message, let mark, _),
            .composer(let context, let message, let mark, _):
            let detail = context.map { " (\($0.text) at \($0.mark))" } ?? ""
            return problem("\(kind): \(message)\(detail)", PlanPosition(mark))
        case .reader(let message, let offset, _, _):
            return problem("\(kind): \(message)", offset.map { position(ofCharacter: $0, in: text) })
        case .duplicatedKeysInMapping(let duplicates, let context):
            let names = duplicates.map { "'\($0)'" }.joined(separator: ", ")
            return problem("duplicate key \(names): each key may appear once in a mapping", PlanPosition(context.mark))
        default:
            return problem("\(kind): \(error)", nil)
        }
    }

    /// The line and column (in Unicode scalars, as libyaml counts) of the `offset`-th character.
    private static func position(ofCharacter offset: Int, in text: String) -> PlanPosition {
        var line = 1
        var column = 1
        for character in text.prefix(offset) {
            if character == "\n" || character == "\r\n" {
                line += 1
                column = 1
            } else {
                column += character.unicodeScalars.count
            }
        }
        return PlanPosition(line: line, column: column)
    }
}

extension ImportPlan {
    /// Reads a plan file (YAML, or JSON when the name ends in `.json`).
    ///
    /// ```swift
    /// let plan = try ImportPlan.load(from: "Seeds/plan.yaml")
    /// plan.sources.map(\.entity)   // ["Item", "ShoppingList"]
    /// ```
    ///
    /// Use ``PlanFile/load(from:)`` to keep the positions for later validation messages.
    /// - Throws: ``PlanErrors`` with every problem found.
    public static func load(from path: String) throws(PlanErrors) -> ImportPlan {
        try PlanFile.load(from: path).plan
    }

    /// Parses plan text; see ``PlanFile/parse(_:syntax:source:baseDirectory:)``.
    public static func parse(
        _ text: String, syntax: PlanSyntax = .yaml, source: String = "plan", baseDirectory: String = "."
    ) throws(PlanErrors) -> ImportPlan {
        try PlanFile.parse(text, syntax: syntax, source: source, baseDirectory: baseDirectory).plan
    }
}
