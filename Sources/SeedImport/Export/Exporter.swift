// Exports one entity's objects (its sub-entities' included) in primary-key order, a page at a
// time, in the columns of ExportColumns: the object's ID where relationships to it could not use
// a unique key, the concrete entity's name where there are sub-entities, attributes by name
// (dates ISO 8601 UTC, binary base64), relationships as the destination's unique key (to-one)
// or a list of keys (to-many, in order when ordered), the object ID for a destination without
// one — so an export re-imports through a plan that names only the entity and its key, and
// routes records to sub-entities by the entity column (docs/CLI.md).
// Invariant: memory stays bounded (one page of objects at a time).
import Foundation
import GraphStore

/// Writes an entity's objects to a file.
///
/// ```swift
/// let count = try Exporter(store: store, entity: "Item", format: .csv).export(to: "items.csv")
/// ```
public struct Exporter {
    private let store: PersistentStore
    private let entity: ModelEntity
    private let format: ExportFormat
    private let pageSize = 2000

    /// An exporter of `entity`'s objects (sub-entities included) from `store`.
    public init(store: PersistentStore, entity: String, format: ExportFormat) throws {
        guard let resolved = store.model.entity(named: entity) else {
            throw FetchError.unknownEntity(entity)
        }
        self.store = store
        self.entity = resolved
        self.format = format
    }

    /// Writes the export to `path` (standard output when nil) and returns the number of objects.
    @discardableResult
    public func export(to path: String?) throws -> Int {
        let handle: FileHandle
        if let path {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
            }
            handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        } else {
            handle = FileHandle.standardOutput
        }
        defer { if path != nil { try? handle.close() } }
        let output = OutputBuffer(handle: handle)
        var writer: any ExportWriter =
            switch format {
            case .csv: CSVExportWriter(output: output)
            case .json: JSONExportWriter(output: output, lines: false)
            case .ndjson: JSONExportWriter(output: output, lines: true)
            case .xml: XMLExportWriter(output: output)
            }
        return try export(with: &writer)
    }

    private func export(with writer: inout any ExportWriter) throws -> Int {
        let columns = ExportColumns(of: entity, in: store.model)
        try writer.begin(entity: entity.name, columns: columns.names)
        let context = try ObjectContext(store: store)
        var last: Int64 = 0
        var count = 0
        while true {
            let page = try context.fetchPage(of: entity.name, after: last, limit: pageSize)
            guard let final = page.last else { break }
            try loadDestinations(of: page, columns: columns, in: context)
            for object in page {
                try writer.write(ExportRow(values: try values(of: object, columns: columns)))
                count += 1
            }
            last = final.objectID.key
            context.reset()
        }
        try writer.end()
        return count
    }

    /// Loads the page's relationships and their destinations (whose keys the rows hold) in bulk.
    private func loadDestinations(of page: [ManagedObject], columns: ExportColumns, in context: ObjectContext) throws {
        var destinations: [ManagedObject] = []
        for (_, objects) in Dictionary(grouping: page, by: { $0.entity.index }).sorted(by: { $0.key < $1.key }) {
            let relationships = columns.sources(of: objects[0].entity).relationships.compactMap { $0 }
            for relationship in relationships where relationship.isToMany {
                try context.prefetch(relationship.name, of: objects)
            }
            for object in objects {
                for relationship in relationships {
                    destinations +=
                        relationship.isToMany
                        ? try object.relatedObjects(at: relationship.index)
                        : try object.related(at: relationship.index).map { [$0] } ?? []
                }
            }
        }
        try context.load(destinations)
    }

    /// One object's row: its identity and entity name when the export has them, then its
    /// attributes and relationships (null for the columns of properties its entity lacks).
    private func values(of object: ManagedObject, columns: ExportColumns) throws -> [ExportValue] {
        var values: [ExportValue] = []
        if columns.writesIdentity { values.append(.text(object.objectID.uriRepresentation)) }
        if columns.entityColumn != nil { values.append(.text(object.entity.name)) }
        let sources = columns.sources(of: object.entity)
        for attribute in sources.attributes {
            values.append(try attribute.map { try Self.value(object.value(at: $0.index)) } ?? .text(nil))
        }
        for relationship in sources.relationships {
            guard let relationship else {
                values.append(.text(nil))
                continue
            }
            if relationship.isToMany {
                values.append(.list(try object.relatedObjects(at: relationship.index).map(Self.key)))
            } else {
                values.append(.text(try object.related(at: relationship.index).map(Self.key)))
            }
        }
        return values
    }

    /// An attribute value for the writers: numbers and Booleans as literals, the rest as text.
    static func value(_ value: AttributeValue?) -> ExportValue {
        switch value {
        case .integer(let integer): .literal(String(integer))
        case .boolean(let bool): .literal(bool ? "true" : "false")
        case .double(let double) where double.isFinite: .literal(String(double))
        case .decimal(let decimal): .literal(decimal.description)
        default: .text(text(value))
        }
    }

    /// An attribute value as export text.
    static func text(_ value: AttributeValue?) -> String? {
        guard let value else { return nil }
        switch value {
        case .binary(let data): return data.base64EncodedString()
        case .date(let date): return ISO8601Text.string(from: date)
        default: return value.description
        }
    }

    /// The key that names `object` in an export: its entity's first unique constraint (values
    /// joined by `,`), or its object ID URI (the identity column's value) when it has none.
    static func key(_ object: ManagedObject) throws -> String {
        guard let constraint = object.entity.uniqueConstraints.first else { return object.objectID.uriRepresentation }
        return try constraint.map { try text(object[$0]) ?? "" }.joined(separator: ",")
    }
}
