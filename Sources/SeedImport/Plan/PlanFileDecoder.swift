// Turns the Yams node tree of a plan file into an `ImportPlan`, walking it by hand (not with
// YAMLDecoder) so that every key and value keeps its line:column in `PlanPositions`.
// Invariants: every problem is collected and decoding goes on past it (the caller throws them all
// at the end); every mapping's keys are checked against the keys the format allows; a null value
// (`key:`, `~`, `null`) means the key was not given; the walk visits a bounded number of nodes, so
// an alias bomb (`&a [*b, *b, …]`) fails instead of hanging.
import RecordReaders
import Yams

/// The keys each kind of mapping in a plan file allows (docs/PlanFormat.md).
enum PlanFileKeys {
    static let plan = [
        "model", "store", "layout", "template", "seed", "batchSize", "onError", "maxErrors", "rejects", "sources",
    ]
    static let seed = ["version"]
    static let recordMapping = ["entity", "entityField", "key", "onConflict", "attributes", "relationships"]
    static let source = ["file", "format", "csv", "records"] + recordMapping
    static let csv = ["delimiter", "quote", "header", "allowRagged", "strict"]
    static let attribute = ["field", "value", "default", "date", "true", "false", "null", "trim", "binary"]
    static let relationship = ["field", "match", "missing", "split", "null", "members", "nested"]
    static let splitPattern = ["pattern"]
}

extension PlanPosition {
    /// The position of a Yams mark.
    init(_ mark: Mark) {
        self.init(line: mark.line, column: mark.column)
    }
}

/// Decodes a plan's node tree, collecting positions and problems.
struct PlanFileDecoder {
    /// The most nodes a plan may have (aliases counted each time they are used): far more than
    /// any real plan needs.
    static let defaultNodeBudget = 100_000

    /// The plan file's name, for problems.
    let file: String
    /// Where each element was written.
    private(set) var positions: PlanPositions
    /// Every problem found, in the order found.
    private(set) var errors: [PlanError] = []
    private let nodeBudget: Int
    private var remainingNodes: Int

    init(file: String, nodeBudget: Int = PlanFileDecoder.defaultNodeBudget) {
        self.file = file
        self.positions = PlanPositions(file: file)
        self.nodeBudget = nodeBudget
        self.remainingNodes = nodeBudget
    }

    // MARK: - Plan structure

    /// The plan in `root` (nil for an empty document).
    mutating func decodePlan(_ root: Node?, baseDirectory: String) -> ImportPlan {
        var plan = ImportPlan(baseDirectory: baseDirectory)
        guard let root else {
            errors.append(PlanError(file: file, message: "the plan is empty"))
            return plan
        }
        positions.record("", key: nil, value: root.mark.map(PlanPosition.init))
        entries(of: root, at: "", allowed: PlanFileKeys.plan) { decoder, key, value, path in
            switch key {
            case "model": plan.model = decoder.text(value, at: path)
            case "store": plan.store = decoder.text(value, at: path)
            case "layout": plan.layout = decoder.choice(value, at: path)
            case "template": plan.template = decoder.text(value, at: path)
            case "seed": plan.seedVersion = decoder.decodeSeed(value, at: path)
            case "batchSize": plan.batchSize = decoder.integer(value, at: path) ?? plan.batchSize
            case "onError": plan.onError = decoder.choice(value, at: path) ?? plan.onError
            case "maxErrors": plan.maxErrors = decoder.integer(value, at: path) ?? plan.maxErrors
            case "rejects": plan.rejects = decoder.text(value, at: path)
            default:
                plan.sources =
                    decoder.list(value, at: path) { decoder, element, path in
                        decoder.decodeSource(element, at: path)
                    } ?? []
            }
        }
        return plan
    }

    private mutating func decodeSeed(_ node: Node, at path: String) -> String? {
        guard !node.isNull else { return nil }
        var version: String?
        entries(of: node, at: path, allowed: PlanFileKeys.seed) { decoder, _, value, path in
            version = decoder.text(value, at: path)
        }
        return version
    }

    private mutating func decodeSource(_ node: Node, at path: String) -> SourcePlan? {
        var file: String?
        var entity: String?
        var source = SourcePlan(file: "", entity: "")
        entries(of: node, at: path, allowed: PlanFileKeys.source) { decoder, key, value, path in
            switch key {
            case "file": file = decoder.text(value, at: path)
            case "format": source.format = decoder.choice(value, at: path)
            case "csv": source.csv = decoder.decodeCSV(value, at: path)
            case "records": source.records = decoder.text(value, at: path)
            case "entity": entity = decoder.text(value, at: path)
            default: decoder.decodeMappingKey(key, value, at: path, into: &source.mapping)
            }
        }
        require(file, "file", in: node, at: path, meaning: "the file to import")
        require(entity, "entity", in: node, at: path, meaning: "the entity its records become")
        guard let file, let entity else { return nil }
        source.file = file
        source.entity = entity
        return source
    }

    private mutating func decodeCSV(_ node: Node, at path: String) -> CSVPlanOptions? {
        guard !node.isNull else { return nil }
        var options = CSVPlanOptions()
        entries(of: node, at: path, allowed: PlanFileKeys.csv) { decoder, key, value, path in
            switch key {
            case "delimiter": options.delimiter = decoder.text(value, at: path)
            case "quote": options.quote = decoder.text(value, at: path)
            case "header": options.header = decoder.boolean(value, at: path)
            case "strict": options.strict = decoder.boolean(value, at: path)
            default: options.allowRagged = decoder.boolean(value, at: path)
            }
        }
        return options
    }

    /// A key shared by sources and nested mappings (all of ``PlanFileKeys/recordMapping`` but `entity`).
    private mutating func decodeMappingKey(
        _ key: String, _ value: Node, at path: String, into mapping: inout RecordMapping
    ) {
        switch key {
        case "key": mapping.key = textList(value, at: path)
        case "entityField": mapping.entityField = text(value, at: path)
        case "onConflict": mapping.onConflict = choice(value, at: path) ?? mapping.onConflict
        case "attributes": mapping.attributes = decodeAttributes(value, at: path)
        default: mapping.relationships = decodeRelationships(value, at: path)
        }
    }

    private mutating func decodeNested(_ node: Node, at path: String) -> NestedMapping? {
        guard !node.isNull else { return nil }
        var entity: String?
        var mapping = RecordMapping(entity: "")
        entries(of: node, at: path, allowed: PlanFileKeys.recordMapping) { decoder, key, value, path in
            if key == "entity" {
                entity = decoder.text(value, at: path)
            } else {
                decoder.decodeMappingKey(key, value, at: path, into: &mapping)
            }
        }
        require(entity, "entity", in: node, at: path, meaning: "the entity nested records become")
        guard let entity else { return nil }
        mapping.entity = entity
        return NestedMapping(mapping)
    }

    // MARK: - Attributes and relationships

    /// `attributes:`; null means "not given" (every attribute by convention), `{}` maps nothing.
    private mutating func decodeAttributes(_ node: Node, at path: String) -> [String: AttributeMapping]? {
        guard !node.isNull else { return nil }
        var attributes: [String: AttributeMapping] = [:]
        entries(of: node, at: path, allowed: nil) { decoder, name, value, path in
            attributes[name] = decoder.decodeAttribute(value, at: path)
        }
        return attributes
    }

    /// `name: field`, `name:` (the conventional field) or `name: {field|value|default, options}`.
    private mutating func decodeAttribute(_ node: Node, at path: String) -> AttributeMapping {
        var mapping = AttributeMapping()
        switch node {
        case .scalar:
            mapping.field = text(node, at: path)
        case .mapping:
            entries(of: node, at: path, allowed: PlanFileKeys.attribute) { decoder, key, value, path in
                switch key {
                case "field": mapping.field = decoder.text(value, at: path)
                case "value": mapping.value = decoder.text(value, at: path)
                case "default": mapping.defaultValue = decoder.text(value, at: path)
                case "date": mapping.dateFormat = decoder.text(value, at: path)
                case "true": mapping.trueWords = decoder.textList(value, at: path)
                case "false": mapping.falseWords = decoder.textList(value, at: path)
                case "null": mapping.nullTokens = decoder.textList(value, at: path)
                case "trim": mapping.trim = decoder.boolean(value, at: path)
                default: mapping.binaryEncoding = decoder.text(value, at: path)
                }
            }
        default:
            wrongType(node, at: path, expected: "a field name or a mapping of options")
        }
        return mapping
    }

    private mutating func decodeRelationships(_ node: Node, at path: String) -> [String: RelationshipMapping] {
        var relationships: [String: RelationshipMapping] = [:]
        guard !node.isNull else { return relationships }
        entries(of: node, at: path, allowed: nil) { decoder, name, value, path in
            relationships[name] = decoder.decodeRelationship(value, at: path)
        }
        return relationships
    }

    /// `name: field`, `name:` (the conventional field) or `name: {field, match, missing, split, null,
    /// members, nested}`.
    private mutating func decodeRelationship(_ node: Node, at path: String) -> RelationshipMapping {
        var mapping = RelationshipMapping()
        switch node {
        case .scalar:
            mapping.field = text(node, at: path)
        case .mapping:
            entries(of: node, at: path, allowed: PlanFileKeys.relationship) { decoder, key, value, path in
                switch key {
                case "field": mapping.field = decoder.text(value, at: path)
                case "match": mapping.match = decoder.textList(value, at: path)
                case "missing": mapping.missing = decoder.choice(value, at: path) ?? mapping.missing
                case "split":
                    if case .mapping = value {
                        decoder.entries(of: value, at: path, allowed: PlanFileKeys.splitPattern) {
                            decoder, _, value, path in mapping.splitPattern = decoder.text(value, at: path)
                        }
                    } else {
                        mapping.split = decoder.text(value, at: path)
                    }
                case "null": mapping.nullTokens = decoder.textList(value, at: path)
                case "members": mapping.members = decoder.choice(value, at: path) ?? mapping.members
                default: mapping.nested = decoder.decodeNested(value, at: path)
                }
            }
        default:
            wrongType(node, at: path, expected: "a field name or a mapping of options")
        }
        return mapping
    }

    // MARK: - Walking nodes

    /// Walks the mapping `node` at `path`: records each entry's positions, reports keys that
    /// `allowed` does not list (any key when nil), and hands the others to `body` (so a `switch`
    /// over them can end with the last allowed key as its `default`).
    private mutating func entries(
        of node: Node, at path: String, allowed: [String]?,
        _ body: (inout PlanFileDecoder, _ key: String, _ value: Node, _ path: String) -> Void
    ) {
        guard case .mapping(let mapping) = node else {
            wrongType(node, at: path, expected: "a mapping")
            return
        }
        for (keyNode, value) in mapping {
            guard spend() else { return }
            guard case .scalar(let scalar) = keyNode else {
                fail(keyNode, at: path, "a key must be a name, not \(Self.describe(keyNode))")
                continue
            }
            let key = scalar.string
            let keyPath = PlanKeyPath.child(path, key)
            let keyPosition = keyNode.mark.map(PlanPosition.init)
            positions.record(keyPath, key: keyPosition, value: value.mark.map(PlanPosition.init))
            if let allowed, !allowed.contains(key) {
                let suggestion = PlanSuggestion.didYouMean(key, among: allowed)
                errors.append(
                    PlanError(
                        file: file, position: keyPosition, keyPath: keyPath,
                        message: "unknown key '\(key)'\(suggestion)"))
                continue
            }
            body(&self, key, value, keyPath)
        }
    }

    /// The elements of the list `node` (nil when null), each decoded by `element`.
    private mutating func list<Element>(
        _ node: Node, at path: String, _ element: (inout PlanFileDecoder, Node, String) -> Element?
    ) -> [Element]? {
        guard !node.isNull else { return nil }
        guard case .sequence(let sequence) = node else {
            wrongType(node, at: path, expected: "a list")
            return nil
        }
        var elements: [Element] = []
        for (index, item) in sequence.enumerated() {
            guard spend() else { break }
            let itemPath = PlanKeyPath.element(path, index)
            positions.record(itemPath, key: nil, value: item.mark.map(PlanPosition.init))
            if let value = element(&self, item, itemPath) { elements.append(value) }
        }
        return elements
    }

    /// Counts one node against the budget; false (after one problem) once it is spent.
    private mutating func spend() -> Bool {
        remainingNodes -= 1
        if remainingNodes == -1 {
            errors.append(
                PlanError(
                    file: file, message: "the plan is too large (more than \(nodeBudget) values, aliases expanded)"))
        }
        return remainingNodes >= 0
    }

    // MARK: - Scalars

    /// A text value (numbers and booleans as written); nil when null or of the wrong type.
    private mutating func text(_ node: Node, at path: String) -> String? {
        guard case .scalar(let scalar) = node else {
            wrongType(node, at: path, expected: "a text")
            return nil
        }
        return node.isNull ? nil : scalar.string
    }

    /// One text or a list of texts (each element taken as written, `~` and `null` included).
    private mutating func textList(_ node: Node, at path: String) -> [String]? {
        switch node {
        case .scalar:
            return text(node, at: path).map { [$0] }
        case .sequence:
            return list(node, at: path) { decoder, element, path in
                guard case .scalar(let scalar) = element else {
                    decoder.wrongType(element, at: path, expected: "a text")
                    return nil
                }
                return scalar.string
            }
        default:
            wrongType(node, at: path, expected: "a text or a list of texts")
            return nil
        }
    }

    /// A whole number in any YAML form (`5000`, `5_000`, `0x1388`).
    private mutating func integer(_ node: Node, at path: String) -> Int? {
        guard !node.isNull else { return nil }
        if let value = node.int { return value }
        wrongType(node, at: path, expected: "a whole number")
        return nil
    }

    /// A Boolean in any YAML form (`true`/`false`, `yes`/`no`, `on`/`off`, any case).
    private mutating func boolean(_ node: Node, at path: String) -> Bool? {
        guard !node.isNull else { return nil }
        if let value = node.bool { return value }
        wrongType(node, at: path, expected: "true or false")
        return nil
    }

    /// One of an enumeration's raw values.
    private mutating func choice<Choice: RawRepresentable & CaseIterable>(_ node: Node, at path: String) -> Choice?
    where Choice.RawValue == String {
        guard let word = text(node, at: path) else { return nil }
        if let value = Choice(rawValue: word) { return value }
        let names = Choice.allCases.map(\.rawValue)
        let key = path.split(separator: ".").last.map(String.init) ?? path
        let suggestion = PlanSuggestion.didYouMean(word, among: names)
        fail(node, at: path, "\(key) must be one of \(names.joined(separator: ", ")), not '\(word)'\(suggestion)")
        return nil
    }

    // MARK: - Problems

    private mutating func require(_ value: String?, _ key: String, in node: Node, at path: String, meaning: String) {
        guard value == nil, case .mapping = node else { return }
        let keyPath = PlanKeyPath.child(path, key)
        if positions.contains(keyPath) {
            // Given but null (a value of the wrong type has its own problem already).
            guard !errors.contains(where: { $0.keyPath == keyPath }) else { return }
            fail(node, at: keyPath, "'\(key)' must not be empty: it names \(meaning)")
        } else {
            fail(node, at: keyPath, "missing key '\(key)' (\(meaning))")
        }
    }

    private mutating func wrongType(_ node: Node, at path: String, expected: String) {
        fail(node, at: path, "expected \(expected), found \(Self.describe(node))")
    }

    private mutating func fail(_ node: Node, at path: String, _ message: String) {
        errors.append(
            PlanError(file: file, position: node.mark.map(PlanPosition.init), keyPath: path, message: message))
    }

    /// How a node reads in a message: `a mapping`, `a list`, `'word'`, `the quoted text "5000"`.
    private static func describe(_ node: Node) -> String {
        switch node {
        case .scalar where node.isNull: "nothing"
        case .scalar(let scalar) where scalar.style == .plain || scalar.style == .any: "'\(scalar.string)'"
        case .scalar(let scalar): "the quoted text \"\(scalar.string)\""
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .alias: "an alias"
        }
    }
}

extension Node {
    /// Whether the node is YAML's null: an empty value, `~` or `null` (unquoted).
    fileprivate var isNull: Bool { null != nil }
}
