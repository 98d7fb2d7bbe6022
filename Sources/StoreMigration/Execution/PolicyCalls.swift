// Runs a mapping pass's migration policies: after each page of an entity mapping's rows is
// written, the page's source objects are read (their attribute values) and handed, one by one in
// key order, to the mapping's policy, then to the policy functions of its attribute mappings
// (`FUNCTION($entityPolicy, …)`), whose values are written into the objects' columns. Through
// its context a policy finds the objects made from a source object, inserts objects (with fresh
// keys above every key the pass hands out, and their attributes' defaults), associates them with
// source objects, sets values, looks objects up by a value, and links objects; its links join the
// mapping's own when the relationship is written.
// Invariants: everything a policy does happens in the transaction of the page it is called for,
// so memory is bounded by the page; keys are handed out in call order, so the same source gives
// the same file.
import GraphStore

/// The policy work of one entity mapping.
struct PolicyUse {
    /// The entity mapping's name.
    let mapping: String
    /// The registered policy; nil when it was skipped or none is named (functions only).
    let policy: (any MigrationPolicy)?
    /// The source entity whose objects it is called for.
    let sourceEntity: ModelEntity
    /// The mapping's identity table.
    let identity: String
    /// Source keys admitted by the mapping's filter, if any.
    let admitted: String?
    /// Attribute mappings whose value is a policy function.
    let functions: [PolicyFunction]
}

/// `FUNCTION($entityPolicy, "selector", arguments…)` of one attribute mapping.
struct PolicyFunction {
    /// The destination attribute written (on the mapping's destination entity).
    let attribute: ModelAttribute
    let selector: String
    let arguments: [Argument]

    /// An argument: a constant, or a source attribute's value.
    enum Argument {
        case constant(AttributeValue?)
        case sourceAttribute(String)
    }
}

/// Calls a mapping pass's policies and keeps what they did.
final class PolicyCalls {
    let program: PassProgram
    /// Policy work by entity mapping index.
    let uses: [Int: PolicyUse]
    /// The TEMP table of links policies made: `(relationship, owner, member)`.
    let linkTable: String
    /// The next key to hand out per destination root entity index.
    private var nextKeys: [Int: Int64] = [:]
    /// Objects policies inserted, per entity name.
    private(set) var inserted: [String: Int] = [:]
    /// The connection of the page under way.
    fileprivate var connection: SQLiteConnection?

    init(program: PassProgram, uses: [Int: PolicyUse]) {
        self.program = program
        self.uses = uses
        linkTable = program.destination.reservedName("policy_links")
    }

    /// Creates the link table and works out the next free key of each destination table (after
    /// the identity tables are built).
    func prepare(on pass: PassConnection) throws {
        try pass.batch { connection in
            try connection.execute(
                "CREATE TEMP TABLE \(SQLiteIdentifier.quote(linkTable))(relationship TEXT NOT NULL, owner INTEGER NOT NULL,"
                    + " member INTEGER NOT NULL)")
        }
        for table in program.identityTables {
            guard let root = table.destinationRoot else { continue }
            let top = try pass.integer("SELECT coalesce(max(dst), 0) FROM temp.\(SQLiteIdentifier.quote(table.name))")
            nextKeys[root.index] = max(nextKeys[root.index] ?? 1, top + 1)
        }
    }

    /// Calls the policy of `group`'s mapping for the source objects with keys in (lower, upper].
    func call(for group: RowGroup, lower: Int64, upper: Int64, on connection: SQLiteConnection) throws {
        guard let index = group.mapping, let use = uses[index] else { return }
        self.connection = connection
        defer { self.connection = nil }
        let context = MigrationPolicyContext(calls: self, use: use)
        for object in try sourceObjects(of: use, lower: lower, upper: upper, on: connection) {
            do {
                try use.policy?.createDestinations(for: object, in: context)
                for function in use.functions { try write(function, for: object, use: use, context: context) }
            } catch let error as MigrationError {
                throw error
            } catch {
                throw MigrationError(.policy("\(use.mapping), source object \(object.key): \(error)"), store: "")
            }
        }
    }

    // MARK: - Source objects

    private func sourceObjects(of use: PolicyUse, lower: Int64, upper: Int64, on connection: SQLiteConnection) throws
        -> [MigrationSourceObject]
    {
        let layout = program.source
        let entity = use.sourceEntity
        let attributes = entity.attributes.filter { !$0.isTransient }
        let columns = attributes.map { "s." + SQLiteIdentifier.quote(layout.column(of: $0)) }
        var sql =
            "SELECT " + (["s.\(layout.keyColumn)"] + columns).joined(separator: ", ")
            + " FROM src.\(SQLiteIdentifier.quote(layout.table(of: entity))) AS s"
            + " WHERE s.\(layout.entityColumn) = \(layout.number(of: entity))"
            + " AND s.\(layout.keyColumn) > ?1 AND s.\(layout.keyColumn) <= ?2"
        if let admitted = use.admitted {
            sql += " AND s.\(layout.keyColumn) IN (SELECT key FROM temp.\(SQLiteIdentifier.quote(admitted)))"
        }
        let statement = try connection.cachedStatement(sql + " ORDER BY s.\(layout.keyColumn)")
        defer { statement.reset() }
        statement.bind(lower, at: 1)
        statement.bind(upper, at: 2)
        var objects: [MigrationSourceObject] = []
        while try statement.step() {
            var values: [String: AttributeValue] = [:]
            for (offset, attribute) in attributes.enumerated() {
                values[attribute.name] = statement.attributeValue(
                    at: Int32(offset + 1), type: attribute.type, encoding: layout.values)
            }
            objects.append(MigrationSourceObject(key: statement.int64(0), entity: entity.name, values: values))
        }
        return objects
    }

    private func write(
        _ function: PolicyFunction, for object: MigrationSourceObject, use: PolicyUse, context: MigrationPolicyContext
    ) throws {
        let arguments = function.arguments.map { argument -> AttributeValue? in
            switch argument {
            case .constant(let value): value
            case .sourceAttribute(let name): object[name]
            }
        }
        guard let policy = use.policy else { return }
        let value = try policy.value(ofFunction: function.selector, arguments: arguments, for: object, in: context)
        for destination in try context.destinations(of: object) {
            try context.set(function.attribute.name, to: value, on: destination)
        }
    }

    // MARK: - What the context does

    fileprivate func live() throws -> SQLiteConnection {
        guard let connection else { throw MigrationPolicyError("the policy context is used outside its call") }
        return connection
    }

    fileprivate func newKey(for root: ModelEntity) -> Int64 {
        let key = nextKeys[root.index] ?? 1
        nextKeys[root.index] = key + 1
        return key
    }

    fileprivate func noteInserted(_ entity: String) {
        inserted[entity, default: 0] += 1
    }
}

/// What a migration policy can do in the new store while it is called.
///
/// ```swift
/// let destination = try context.destinations(of: source).first
/// let maker = try context.first("Maker", where: "name", is: .string("Tesla")) ?? context.insert("Maker", values: ["name": .string("Tesla")])
/// try context.link(maker, "cars", to: destination!)
/// ```
public final class MigrationPolicyContext {
    private let calls: PolicyCalls
    private let use: PolicyUse

    fileprivate init(calls: PolicyCalls, use: PolicyUse) {
        self.calls = calls
        self.use = use
    }

    private var layout: StoreLayout { calls.program.destination }

    /// The name of the entity mapping being run.
    public var mappingName: String { use.mapping }

    /// The destination objects made from `source` by this entity mapping (its SQL, or `associate`).
    public func destinations(of source: MigrationSourceObject) throws -> [MigrationObject] {
        try destinations(ofKey: source.key, identity: use.identity)
    }

    /// Inserts a new object of `entity` with `values` (attributes not given get their defaults).
    ///
    /// - Throws: ``MigrationPolicyError`` for an unknown or abstract entity, an unknown attribute
    ///   or a value of the wrong type.
    @discardableResult
    public func insert(_ entity: String, values: [String: AttributeValue?] = [:]) throws -> MigrationObject {
        guard let target = layout.model.entity(named: entity), !target.isAbstract else {
            throw MigrationPolicyError("there is no concrete entity \(entity) in the new model")
        }
        for name in values.keys where target.attribute(named: name) == nil {
            throw MigrationPolicyError("\(entity) has no attribute \(name)")
        }
        let root = layout.model.root(of: target)
        let key = calls.newKey(for: root)
        var columns = [layout.keyColumn, layout.entityColumn, layout.versionColumn]
        var bound: [AttributeValue?] = []
        for attribute in target.attributes where !attribute.isTransient {
            let value = values[attribute.name] ?? attribute.declaration.defaultValue
            try check(value, for: attribute, of: entity)
            columns.append(SQLiteIdentifier.quote(layout.column(of: attribute)))
            bound.append(value)
        }
        let statement = try calls.live().cachedStatement(
            "INSERT INTO main.\(SQLiteIdentifier.quote(layout.table(of: target)))(\(columns.joined(separator: ", ")))"
                + " VALUES (?, \(layout.number(of: target)), 1" + String(repeating: ", ?", count: bound.count) + ")")
        defer { statement.reset() }
        statement.bind(key, at: 1)
        for (offset, value) in bound.enumerated() {
            statement.bind(value, at: Int32(offset + 2), encoding: layout.values)
        }
        try statement.execute()
        calls.noteInserted(entity)
        return MigrationObject(entity: entity, key: key)
    }

    /// Records that `destination` was made from `source` by the entity mapping `mapping`
    /// (default: the one being run), so relationship mappings find it.
    public func associate(_ source: MigrationSourceObject, with destination: MigrationObject, mapping: String? = nil)
        throws
    {
        let identity = try mapping.map(identityTable(of:)) ?? use.identity
        let statement = try calls.live().cachedStatement(
            "INSERT OR IGNORE INTO temp.\(SQLiteIdentifier.quote(identity))(src, dst, made) VALUES (?, ?, 0)")
        defer { statement.reset() }
        statement.bind(source.key, at: 1)
        statement.bind(destination.key, at: 2)
        try statement.execute()
    }

    /// Sets the attribute `name` of `object` to `value`.
    public func set(_ name: String, to value: AttributeValue?, on object: MigrationObject) throws {
        let (entity, attribute) = try resolve(name, of: object)
        try check(value, for: attribute, of: entity.name)
        let statement = try calls.live().cachedStatement(
            "UPDATE main.\(SQLiteIdentifier.quote(layout.table(of: entity))) SET \(SQLiteIdentifier.quote(layout.column(of: attribute))) = ?"
                + " WHERE \(layout.keyColumn) = ?")
        defer { statement.reset() }
        statement.bind(value, at: 1, encoding: layout.values)
        statement.bind(object.key, at: 2)
        try statement.execute()
    }

    /// The value of the attribute `name` of `object`.
    public func value(of name: String, in object: MigrationObject) throws -> AttributeValue? {
        let (entity, attribute) = try resolve(name, of: object)
        let statement = try calls.live().cachedStatement(
            "SELECT \(SQLiteIdentifier.quote(layout.column(of: attribute))) FROM main.\(SQLiteIdentifier.quote(layout.table(of: entity)))"
                + " WHERE \(layout.keyColumn) = ?")
        defer { statement.reset() }
        statement.bind(object.key, at: 1)
        return try statement.step()
            ? statement.attributeValue(at: 0, type: attribute.type, encoding: layout.values) : nil
    }

    /// The first object (by key) of `entity` or its sub-entities whose attribute `name` is `value`.
    public func first(_ entity: String, where name: String, is value: AttributeValue) throws -> MigrationObject? {
        guard let target = layout.model.entity(named: entity), let attribute = target.attribute(named: name),
            !attribute.isTransient
        else { throw MigrationPolicyError("\(entity) has no stored attribute \(name)") }
        let statement = try calls.live().cachedStatement(
            "SELECT \(layout.keyColumn), \(layout.entityColumn) FROM main.\(SQLiteIdentifier.quote(layout.table(of: target)))"
                + " WHERE \(layout.entityColumn) IN (\(layout.kindList(of: target)))"
                + " AND \(SQLiteIdentifier.quote(layout.column(of: attribute))) = ? ORDER BY \(layout.keyColumn) LIMIT 1"
        )
        defer { statement.reset() }
        statement.bind(value, at: 1, encoding: layout.values)
        guard try statement.step(), let found = layout.entity(number: statement.int64(1)) else { return nil }
        return MigrationObject(entity: found.name, key: statement.int64(0))
    }

    /// Adds `member` to the relationship `name` of `owner` (for a to-one: sets it); the inverse follows.
    public func link(_ owner: MigrationObject, _ name: String, to member: MigrationObject) throws {
        guard let entity = layout.model.entity(named: owner.entity),
            let relationship = entity.relationship(named: name),
            !relationship.isTransient
        else { throw MigrationPolicyError("\(owner.entity) has no stored relationship \(name)") }
        guard let target = layout.model.entity(named: member.entity),
            target.isKind(of: layout.model.destination(of: relationship))
        else { throw MigrationPolicyError("\(member.entity) cannot be a destination of \(owner.entity).\(name)") }
        let statement = try calls.live().cachedStatement(
            "INSERT INTO temp.\(SQLiteIdentifier.quote(calls.linkTable))(relationship, owner, member) VALUES (?, ?, ?)")
        defer { statement.reset() }
        statement.bind(text: "\(relationship.declaringEntity).\(relationship.name)", at: 1)
        statement.bind(owner.key, at: 2)
        statement.bind(member.key, at: 3)
        try statement.execute()
    }

    // MARK: - Helpers

    private func destinations(ofKey key: Int64, identity: String) throws -> [MigrationObject] {
        var objects: [MigrationObject] = []
        let statement = try calls.live().cachedStatement(
            "SELECT dst FROM temp.\(SQLiteIdentifier.quote(identity)) WHERE src = ? ORDER BY dst")
        defer { statement.reset() }
        statement.bind(key, at: 1)
        var keys: [Int64] = []
        while try statement.step() { keys.append(statement.int64(0)) }
        statement.reset()
        for key in keys {
            if let object = try object(withKey: key) { objects.append(object) }
        }
        return objects
    }

    /// The object with `key` in the destination table of the mapping being run.
    private func object(withKey key: Int64) throws -> MigrationObject? {
        guard let table = calls.program.identityTables.first(where: { $0.name == use.identity }),
            let root = table.destinationRoot
        else { return nil }
        let statement = try calls.live().cachedStatement(
            "SELECT \(layout.entityColumn) FROM main.\(SQLiteIdentifier.quote(layout.table(of: root))) WHERE \(layout.keyColumn) = ?"
        )
        defer { statement.reset() }
        statement.bind(key, at: 1)
        guard try statement.step(), let entity = layout.entity(number: statement.int64(0)) else { return nil }
        return MigrationObject(entity: entity.name, key: key)
    }

    private func identityTable(of mapping: String) throws -> String {
        guard
            let table = calls.uses.values.first(where: { $0.mapping == mapping })?.identity
                ?? calls.program.identityTables.first(where: { calls.program.mappingNames[$0.mapping] == mapping })?
                .name
        else { throw MigrationPolicyError("there is no entity mapping \(mapping)") }
        return table
    }

    private func resolve(_ name: String, of object: MigrationObject) throws -> (ModelEntity, ModelAttribute) {
        guard let entity = layout.model.entity(named: object.entity), let attribute = entity.attribute(named: name),
            !attribute.isTransient
        else { throw MigrationPolicyError("\(object.entity) has no stored attribute \(name)") }
        return (entity, attribute)
    }

    private func check(_ value: AttributeValue?, for attribute: ModelAttribute, of entity: String) throws {
        guard let value, !value.matches(attribute.type) else { return }
        throw MigrationPolicyError(
            "\(entity).\(attribute.name) holds \(attribute.type.rawValue) values, not \(value.kindName)")
    }
}
