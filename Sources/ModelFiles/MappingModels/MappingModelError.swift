// MappingModelError: why a mapping model could not be read — the file, the line where known,
// and the entity mapping and property concerned.

/// A mapping model that could not be read.
///
/// `description` reads `…/xcmapping.xml:57: entity mapping 'PersonToPerson', property 'previousCars': …`.
public struct MappingModelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The `xcmapping.xml` file (or the folder, when the file is missing).
    public var file: String
    /// The line of the element at fault (0 when unknown).
    public var line: Int
    /// The entity mapping concerned, if any.
    public var entityMapping: String?
    /// The attribute or relationship mapping concerned, if any.
    public var property: String?
    /// What is wrong.
    public var message: String

    /// An error with these parts.
    public init(file: String, line: Int = 0, entityMapping: String? = nil, property: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.entityMapping = entityMapping
        self.property = property
        self.message = message
    }

    /// `file:line: entity mapping 'M', property 'p': message`, with what is known.
    public var description: String {
        var place = line > 0 ? "\(file):\(line)" : file
        let context = [entityMapping.map { "entity mapping '\($0)'" }, property.map { "property '\($0)'" }].compactMap {
            $0
        }
        if !context.isEmpty { place += ": " + context.joined(separator: ", ") }
        return place + ": " + message
    }
}
