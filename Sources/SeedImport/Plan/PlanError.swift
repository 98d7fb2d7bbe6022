// The problems a plan file can have: where each one is (file, line:column, key path) and what is
// wrong, and the list form that parsing and validation report every problem in.
// Invariant: a description always starts with the most precise position known, so editors and
// terminals can jump to it (`plan.yaml:14:9 (sources[0].relationships.unit.match): …`).

/// A line and column in a plan file, both counted from 1 (columns in Unicode scalars).
public struct PlanPosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// The column, from 1.
    public var column: Int

    /// The position at `line`:`column`.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `line:column`.
    public var description: String { "\(line):\(column)" }

    /// Earlier in the file first.
    public static func < (lhs: PlanPosition, rhs: PlanPosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}

/// One problem in a plan: where it is and what is wrong.
///
/// ```swift
/// let problems = PlanValidator().validate(plan, model: model, positions: file.positions)
/// for problem in problems { print(problem) }
/// // plan.yaml:14:9 (sources[0].relationships.unit.match): 'nme' is not an attribute of Unit; did you mean 'name'?
/// ```
public struct PlanError: Error, CustomStringConvertible, Sendable, Hashable {
    /// How serious a problem is.
    public enum Severity: String, Sendable, Hashable {
        /// The plan cannot run.
        case error
        /// The plan runs, but probably not as its author meant.
        case warning
    }

    /// The plan file, as the caller named it; nil for plans built in Swift.
    public var file: String?
    /// Where in the file, when known.
    public var position: PlanPosition?
    /// The key path of the element at fault (`sources[0].relationships.unit.match`); empty for the whole plan.
    public var keyPath: String
    /// What is wrong.
    public var message: String
    /// Whether the problem stops the plan.
    public var severity: Severity

    /// A problem at `keyPath` (and `position` in `file`, when known).
    public init(
        file: String? = nil, position: PlanPosition? = nil, keyPath: String = "", message: String,
        severity: Severity = .error
    ) {
        self.file = file
        self.position = position
        self.keyPath = keyPath
        self.message = message
        self.severity = severity
    }

    /// The line, from 1, when known.
    public var line: Int? { position?.line }
    /// The column, from 1, when known.
    public var column: Int? { position?.column }
    /// Whether the problem is only a warning.
    public var isWarning: Bool { severity == .warning }

    /// `file:line:column (keyPath): message`, leaving out what is not known; warnings say so.
    public var description: String {
        var location = file ?? ""
        if let position { location += location.isEmpty ? "\(position)" : ":\(position)" }
        var prefix = location
        if !keyPath.isEmpty { prefix += prefix.isEmpty ? keyPath : " (\(keyPath))" }
        let text = isWarning ? "warning: " + message : message
        return prefix.isEmpty ? text : prefix + ": " + text
    }
}

/// Every problem found in a plan, in file order: what parsing throws.
///
/// ```swift
/// do { let plan = try ImportPlan.load(from: "plan.yaml") }
/// catch { print(error) }   // one problem per line
/// ```
public struct PlanErrors: Error, CustomStringConvertible, Sendable, Hashable {
    /// The problems, at least one.
    public var errors: [PlanError]

    /// A list of problems.
    public init(_ errors: [PlanError]) {
        self.errors = errors
    }

    /// One problem per line.
    public var description: String {
        errors.map(\.description).joined(separator: "\n")
    }

    /// `errors` sorted by position; the sort is stable, and problems without a position keep
    /// their order, after the others.
    static func inFileOrder(_ errors: [PlanError]) -> [PlanError] {
        let unknown = PlanPosition(line: .max, column: .max)
        return errors.enumerated()
            .sorted { ($0.element.position ?? unknown, $0.offset) < ($1.element.position ?? unknown, $1.offset) }
            .map(\.element)
    }
}
