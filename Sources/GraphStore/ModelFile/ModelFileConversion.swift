// Converts between a `ModelFile` (the JSON/YAML form) and an `ObjectModel`.
import Foundation

extension ModelFile {
    /// The file form of `model`: what `seedkit model --json` prints and what stores embed.
    public init(_ model: ObjectModel) {
        name = model.name
        entities = Dictionary(uniqueKeysWithValues: model.entities.map { ($0.name, EntityEntry($0.declaration)) })
        let templates = model.fetchRequestTemplates.map {
            ($0.name, FetchRequestEntry(entity: $0.entity, predicate: $0.predicateFormat))
        }
        fetchRequests = templates.isEmpty ? nil : Dictionary(uniqueKeysWithValues: templates)
    }

    /// The validated model this file describes.
    ///
    /// - Parameter source: names the file in errors.
    /// - Throws: ``ModelError`` listing every problem (bad default values included).
    public func objectModel(source: String? = nil) throws -> ObjectModel {
        var problems: [ModelProblem] = []
        var declarations: [EntityDescription] = []
        for (entityName, entry) in entities.sorted(by: { $0.key < $1.key }) {
            declarations.append(entry.declaration(named: entityName, problems: &problems))
        }
        guard problems.isEmpty else { throw ModelError(source: source ?? name, problems: problems) }
        let templates = (fetchRequests ?? [:]).sorted { $0.key < $1.key }.map {
            FetchRequestTemplate(name: $0.key, entity: $0.value.entity, predicateFormat: $0.value.predicate)
        }
        do {
            return try ObjectModel(name: name, entities: declarations, fetchRequestTemplates: templates)
        } catch var error as ModelError {
            error.source = source ?? name
            throw error
        }
    }
}

extension ModelFile.EntityEntry {
    init(_ declaration: EntityDescription) {
        parent = declaration.parent
        abstract = declaration.isAbstract ? true : nil
        attributes =
            declaration.attributes.isEmpty
            ? nil
            : Dictionary(uniqueKeysWithValues: declaration.attributes.map { ($0.name, ModelFile.AttributeEntry($0)) })
        relationships =
            declaration.relationships.isEmpty
            ? nil
            : Dictionary(
                uniqueKeysWithValues: declaration.relationships.map { ($0.name, ModelFile.RelationshipEntry($0)) })
        unique = declaration.uniqueConstraints.isEmpty ? nil : declaration.uniqueConstraints
        indexes =
            declaration.indexes.isEmpty
            ? nil
            : Dictionary(
                declaration.indexes.map { index in
                    (index.name, index.elements.map { $0.ascending ? $0.property : "\($0.property) desc" })
                }, uniquingKeysWith: { first, _ in first })
        userInfo = declaration.userInfo.isEmpty ? nil : declaration.userInfo
        renamedFrom = declaration.renamingIdentifier
        hashModifier = declaration.hashModifier
        fetched =
            declaration.fetchedProperties.isEmpty
            ? nil
            : Dictionary(
                declaration.fetchedProperties.map {
                    ($0.name, ModelFile.FetchRequestEntry(entity: $0.entity, predicate: $0.predicateFormat))
                }, uniquingKeysWith: { first, _ in first })
    }

    func declaration(named name: String, problems: inout [ModelProblem]) -> EntityDescription {
        var declaration = EntityDescription(name: name, parent: parent, isAbstract: abstract ?? false)
        for (attributeName, entry) in (attributes ?? [:]).sorted(by: { $0.key < $1.key }) {
            do {
                declaration.attributes.append(try entry.declaration(named: attributeName))
            } catch {
                problems.append(ModelProblem(entity: name, property: attributeName, message: "\(error)"))
            }
        }
        declaration.relationships = (relationships ?? [:]).sorted { $0.key < $1.key }.map {
            $0.value.declaration(named: $0.key)
        }
        declaration.uniqueConstraints = unique ?? []
        declaration.indexes = (indexes ?? [:]).sorted { $0.key < $1.key }.map { indexName, elements in
            IndexDescription(
                name: indexName,
                elements: elements.map { element in
                    let parts = element.split(separator: " ")
                    let descending = parts.count == 2 && parts[1].lowercased() == "desc"
                    return IndexElement(String(parts.first ?? ""), ascending: !descending)
                })
        }
        declaration.userInfo = userInfo ?? [:]
        declaration.renamingIdentifier = renamedFrom
        declaration.hashModifier = hashModifier
        declaration.fetchedProperties = (fetched ?? [:]).sorted { $0.key < $1.key }.map {
            FetchedPropertyDescription(name: $0.key, entity: $0.value.entity, predicateFormat: $0.value.predicate)
        }
        return declaration
    }
}

extension ModelFile.AttributeEntry {
    init(_ attribute: AttributeDescription) {
        self.init(type: attribute.type)
        optional = attribute.isOptional ? nil : false
        self.default = attribute.defaultValue.map(ModelFileScalar.init)
        indexed = attribute.isIndexed ? true : nil
        transient = attribute.isTransient ? true : nil
        externalStorage = attribute.allowsExternalStorage ? true : nil
        transformer = attribute.valueTransformerName
        let rules = attribute.validation
        min = rules.minimum
        max = rules.maximum
        minLength = rules.minimumLength
        maxLength = rules.maximumLength
        pattern = rules.pattern
        earliest = rules.earliestDate.map(ISO8601Text.string(from:))
        latest = rules.latestDate.map(ISO8601Text.string(from:))
        userInfo = attribute.userInfo.isEmpty ? nil : attribute.userInfo
        renamedFrom = attribute.renamingIdentifier
        hashModifier = attribute.hashModifier
        preserveAfterDeletion = attribute.preservesValueAfterDeletion ? true : nil
        readOnly = attribute.isReadOnly ? true : nil
    }

    func declaration(named name: String) throws -> AttributeDescription {
        var rules = ValidationRules(
            minimum: min, maximum: max, minimumLength: minLength, maximumLength: maxLength, pattern: pattern)
        rules.earliestDate = try earliest.map { try Self.date($0, label: "earliest") }
        rules.latestDate = try latest.map { try Self.date($0, label: "latest") }
        var attribute = AttributeDescription(
            name: name, type: type, isOptional: optional ?? true,
            defaultValue: try self.default.map { try $0.attributeValue(for: type) },
            isIndexed: indexed ?? false, isTransient: transient ?? false,
            allowsExternalStorage: externalStorage ?? false, valueTransformerName: transformer,
            validation: rules, userInfo: userInfo ?? [:])
        attribute.renamingIdentifier = renamedFrom
        attribute.hashModifier = hashModifier
        attribute.preservesValueAfterDeletion = preserveAfterDeletion ?? false
        attribute.isReadOnly = readOnly ?? false
        return attribute
    }

    private static func date(_ text: String, label: String) throws -> Date {
        guard let date = ISO8601Text.date(from: text) else {
            throw TransformableCodecError("\(label) date '\(text)' is not ISO 8601")
        }
        return date
    }
}

extension ModelFile.RelationshipEntry {
    init(_ relationship: RelationshipDescription) {
        destination = relationship.destination
        inverse = relationship.inverse
        toMany = relationship.isToMany ? true : nil
        ordered = relationship.isOrdered ? true : nil
        optional = relationship.isOptional ? nil : false
        min = relationship.minCount == 0 ? nil : relationship.minCount
        max = relationship.maxCount == 0 ? nil : relationship.maxCount
        deleteRule = relationship.deleteRule == .nullify ? nil : relationship.deleteRule
        transient = relationship.isTransient ? true : nil
        userInfo = relationship.userInfo.isEmpty ? nil : relationship.userInfo
        renamedFrom = relationship.renamingIdentifier
        hashModifier = relationship.hashModifier
        readOnly = relationship.isReadOnly ? true : nil
    }

    func declaration(named name: String) -> RelationshipDescription {
        var relationship = RelationshipDescription(
            name: name, destination: destination, inverse: inverse, isToMany: toMany ?? false,
            isOrdered: ordered ?? false, isOptional: optional ?? true, minCount: min ?? 0, maxCount: max ?? 0,
            deleteRule: deleteRule ?? .nullify, isTransient: transient ?? false, userInfo: userInfo ?? [:])
        relationship.renamingIdentifier = renamedFrom
        relationship.hashModifier = hashModifier
        relationship.isReadOnly = readOnly ?? false
        return relationship
    }
}

extension ModelFileScalar {
    /// The file form of an attribute value.
    init(_ value: AttributeValue) {
        switch value {
        case .integer(let integer): self = .integer(integer)
        case .decimal(let decimal): self = .string(decimal.description)
        case .double(let double): self = .number(double)
        case .string(let string): self = .string(string)
        case .boolean(let bool): self = .bool(bool)
        case .date(let date): self = .string(ISO8601Text.string(from: date))
        case .binary(let data): self = .string(data.base64EncodedString())
        case .uuid(let uuid): self = .string(uuid.uuidString)
        case .uri(let url): self = .string(url.absoluteString)
        }
    }

    /// The value this scalar stands for in an attribute of `type`.
    func attributeValue(for type: AttributeType) throws -> AttributeValue {
        let fail = TransformableCodecError("default value \(self) does not fit type \(type.rawValue)")
        switch (type, self) {
        case (.integer16, .integer(let value)), (.integer32, .integer(let value)), (.integer64, .integer(let value)):
            return .integer(value)
        case (.decimal, .integer(let value)): return .decimal(Decimal(value))
        case (.decimal, .string(let text)):
            guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else { throw fail }
            return .decimal(value)
        case (.decimal, .number(let value)): return .decimal(Decimal(value))
        case (.double, .number(let value)), (.float, .number(let value)): return .double(value)
        case (.double, .integer(let value)), (.float, .integer(let value)): return .double(Double(value))
        case (.string, .string(let text)): return .string(text)
        case (.boolean, .bool(let value)): return .boolean(value)
        case (.date, .string(let text)):
            guard let date = ISO8601Text.date(from: text) else { throw fail }
            return .date(date)
        case (.date, .number(let seconds)): return .date(Date(timeIntervalSince1970: seconds))
        case (.date, .integer(let seconds)): return .date(Date(timeIntervalSince1970: Double(seconds)))
        case (.binary, .string(let text)), (.transformable, .string(let text)):
            guard let data = Data(base64Encoded: text) else { throw fail }
            return .binary(data)
        case (.uuid, .string(let text)):
            guard let uuid = UUID(uuidString: text) else { throw fail }
            return .uuid(uuid)
        case (.uri, .string(let text)):
            guard let url = URL(string: text) else { throw fail }
            return .uri(url)
        default:
            throw fail
        }
    }
}
