// Reads an Xcode mapping model — a `.xcmappingmodel` folder or its `xcmapping.xml` — into a
// MappingModel: the two model versions (from the last two components of their paths), the entity
// mappings in editor order with their derived kind (add, remove, transform) and names (`name`,
// else `<source>To<destination>`), policy class names, and the attribute and relationship
// mappings with their value expressions decoded (MappingExpressionDecoder.swift).
//
// Security: the XML is parsed by XcodeModelXML (no network, no DTD load: the file's DOCTYPE
// names a DTD on a Mac's disk, which is accepted and never fetched); expressions are decoded with
// SeedKit's own bplist reader under hard limits.
// Invariants: every error is a MappingModelError naming the file, the line where known, and the
// entity mapping and property concerned; names the format does not have are warnings (in the
// result, and logged at warning level as `seedkit.model`), never errors; entity mapping names are
// unique; every relationship target exists and has the right type.
import Foundation

/// Reads Xcode mapping models (`.xcmappingmodel`).
///
/// ```swift
/// let mapping = try MappingModelReader.readMappingModel(at: URL(fileURLWithPath: "V2toV3.xcmappingmodel"))
/// mapping.source.versionName                                          // "SampleModel2"
/// mapping.entityMapping(named: "PersonToPerson")?.relationshipMappings.first?.valueExpression?.format
/// ```
public enum MappingModelReader {
    /// Reads the mapping model at `url`: a `.xcmappingmodel` folder or its `xcmapping.xml`.
    /// - Throws: ``MappingModelError``.
    public static func readMappingModel(at url: URL) throws(MappingModelError) -> MappingModel {
        let file =
            url.pathExtension.lowercased() == "xcmappingmodel" ? url.appendingPathComponent("xcmapping.xml") : url
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw MappingModelError(file: file.path, message: "the mapping model file does not exist")
        }
        let root: XcodeModelElement
        do {
            root = try XcodeModelXML.parse(fileAt: file.path)
        } catch {
            throw MappingModelError(
                file: file.path, line: error.line, message: "cannot parse the XML: \(error.message)")
        }
        guard root.name.lowercased() == "database" else {
            throw MappingModelError(
                file: file.path, line: root.line, message: "the root element is <\(root.name)>, not <database>")
        }
        var warnings: [String] = []
        var objects: [String: MappingStoreObject] = [:]
        for child in root.children {
            switch child.name.lowercased() {
            case "databaseinfo":
                continue
            case "object":
                let object = try MappingStoreObject(child, file: file.path, warnings: &warnings)
                guard objects[object.id] == nil else {
                    throw MappingModelError(
                        file: file.path, line: object.line, message: "the object id \(object.id) appears twice")
                }
                objects[object.id] = object
            default:
                warnings.append("line \(child.line): unknown element <\(child.name)> passed over")
            }
        }
        let model = try MappingModelAssembler(file: file.path, objects: objects).mappingModel(warnings: warnings)
        for warning in model.warnings { modelLog.warning("\(file.path): \(warning)") }
        return model
    }
}

/// Builds a MappingModel from the store's objects.
private struct MappingModelAssembler {
    let file: String
    let objects: [String: MappingStoreObject]

    func mappingModel(warnings: [String]) throws(MappingModelError) -> MappingModel {
        let models = objects.values.filter { $0.type == "XDDEVMAPPINGMODEL" }
        guard models.count == 1, let model = models.first else {
            throw MappingModelError(
                file: file, message: "the file holds \(models.count) XDDEVMAPPINGMODEL objects, not one")
        }
        guard let sourcePath = model.string("sourcemodelpath"),
            let destinationPath = model.string("destinationmodelpath")
        else {
            throw MappingModelError(
                file: file, line: model.line, message: "the mapping model names no source or destination model path")
        }
        var mappings: [EntityMapping] = []
        for object in try targets(of: model, "entitymappings", type: "XDDEVENTITYMAPPING") {
            let mapping = try entityMapping(object)
            if let other = mappings.first(where: { $0.name == mapping.name }) {
                throw MappingModelError(
                    file: file, line: object.line, entityMapping: mapping.name,
                    message:
                        "two entity mappings have this name (mapping numbers \(other.number) and \(mapping.number))")
            }
            mappings.append(mapping)
        }
        mappings.sort { ($0.number, $0.name) < ($1.number, $1.name) }
        let listed = Set(model.targets("entitymappings"))
        let unlisted = objects.values.filter { $0.type == "XDDEVENTITYMAPPING" && !listed.contains($0.id) }
        let orphanWarnings = unlisted.sorted { $0.line < $1.line }.map {
            "line \($0.line): entity mapping \($0.id) is not in the mapping model's entitymappings; passed over"
        }
        return MappingModel(
            source: MappingModelVersion(path: sourcePath), destination: MappingModelVersion(path: destinationPath),
            entityMappings: mappings, warnings: warnings + orphanWarnings)
    }

    private func entityMapping(_ object: MappingStoreObject) throws(MappingModelError) -> EntityMapping {
        let source = object.string("sourcename")
        let destination = object.string("destinationname")
        let kind: EntityMapping.Kind
        switch (source, destination) {
        case (nil, nil):
            throw MappingModelError(
                file: file, line: object.line,
                message: "entity mapping \(object.id) names neither a source nor a destination entity")
        case (nil, _): kind = .add
        case (_, nil): kind = .remove
        default: kind = .transform
        }
        let name = object.string("name") ?? "\(source ?? "")To\(destination ?? "")"
        let failure = { (message: String, line: Int) in
            MappingModelError(file: file, line: line, entityMapping: name, message: message)
        }
        return EntityMapping(
            name: name, kind: kind, sourceEntity: source, destinationEntity: destination,
            number: try object.integer("mappingnumber", failure: failure) ?? 0,
            policyClassName: object.string("migrationpolicyclassname"),
            attributeMappings: try propertyMappings(
                of: object, "attributemappings", type: "XDDEVATTRIBUTEMAPPING", in: name),
            relationshipMappings: try propertyMappings(
                of: object, "relationshipmappings", type: "XDDEVRELATIONSHIPMAPPING", in: name),
            sourceFilterPredicate: object.string("sourcefilterpredicatestring"),
            sourceExpression: try object.expression("sourceexpressiondata", failure: failure),
            generatesExpressions: try object.boolean("autogenerateexpression", failure: failure) ?? false)
    }

    /// The attribute or relationship mappings `relationship` of `owner` lists, sorted by name.
    private func propertyMappings(
        of owner: MappingStoreObject, _ relationship: String, type: String, in mapping: String
    )
        throws(MappingModelError) -> [PropertyMapping]
    {
        var result: [PropertyMapping] = []
        for object in try targets(of: owner, relationship, type: type, mapping: mapping) {
            guard let name = object.string("name") else {
                throw MappingModelError(
                    file: file, line: object.line, entityMapping: mapping, message: "\(type) \(object.id) has no name")
            }
            let failure = { (message: String, line: Int) in
                MappingModelError(file: file, line: line, entityMapping: mapping, property: name, message: message)
            }
            guard !result.contains(where: { $0.name == name }) else {
                throw failure("the property is mapped twice", object.line)
            }
            result.append(
                PropertyMapping(
                    name: name, valueExpression: try object.expression("valueexpressiondata", failure: failure),
                    generatesExpression: try object.boolean("autogenerateexpression", failure: failure) ?? false))
        }
        return result.sorted { $0.name < $1.name }
    }

    /// The objects relationship `name` of `owner` lists, each checked to exist and be of `type`.
    private func targets(of owner: MappingStoreObject, _ name: String, type: String, mapping: String? = nil)
        throws(MappingModelError) -> [MappingStoreObject]
    {
        var result: [MappingStoreObject] = []
        for id in owner.targets(name) {
            guard let target = objects[id], target.type == type else {
                let found = objects[id].map { "a \($0.type)" } ?? "no object"
                throw MappingModelError(
                    file: file, line: owner.line(of: name), entityMapping: mapping,
                    message: "\(name) of \(owner.id) names \(id), which is \(found), not a \(type)")
            }
            result.append(target)
        }
        return result
    }
}
