// Resolves key paths of a fetch (or of a subquery's members) against the model and plans the
// joins they need.
// Invariants: alias t0 is the fetched entity's root table (a subquery's members are `s1`, `s2`…);
// each to-one hop prefix gets one `LEFT JOIN` (so rows are never dropped or multiplied, and a
// nil hop yields NULL values), numbered t1, t2, … (s1_1, s1_2, … in a subquery) in the order key
// paths are first resolved; joins are on primary keys. Key paths through a to-many are left to
// `collection(_:)`, which splits them for a subquery.

/// What a key path names, as SQL over the aliases of a fetch query.
enum ResolvedKeyPath {
    /// An attribute stored in `column` (`t1."name"`).
    case attribute(ModelAttribute, column: String)
    /// An object of `entity` (or a sub-entity), identified by the primary key in `column`
    /// (a to-one relationship's foreign key, or `t0.pk` for `self`).
    case object(ModelEntity, column: String)
}

/// Resolves dotted key paths from one entity, collecting the joins they need.
struct SQLKeyPathResolver {
    /// One `LEFT JOIN` of a to-one relationship's destination table.
    struct Join {
        /// The key path prefix that ends at the relationship (`unit`, `unit.owner`).
        let path: String
        /// `LEFT JOIN "Unit" t1 ON t1.pk = t0."unit"`.
        let sql: String
    }

    /// The alias of the fetched entity's table.
    static let rootAlias = "t0"

    /// The model key paths are resolved in.
    var model: ObjectModel { layout.model }

    /// The first to-many hop of a key path: the column holding the owner's primary key, the
    /// relationship, and the rest of the key path after it (empty when it ends there).
    struct CollectionHop {
        let ownerColumn: String
        let relationship: ModelRelationship
        let rest: String
    }

    /// The store layout the SQL is for.
    let layout: StoreLayout
    /// The entity key paths start from.
    let entity: ModelEntity
    /// The alias of `entity`'s table.
    let alias: String
    /// The prefix of join aliases (`t` gives t1, t2, …).
    private let joinPrefix: String
    /// The joins needed so far, in order.
    private(set) var joins: [Join] = []

    /// A resolver from `entity`'s table under `alias`, naming its joins `joinPrefix` 1, 2, ….
    init(layout: StoreLayout, entity: ModelEntity, alias: String = rootAlias, joinPrefix: String = "t") {
        self.layout = layout
        self.entity = entity
        self.alias = alias
        self.joinPrefix = joinPrefix
    }

    /// Resolves `path` (`name`, `unit.name`, `unit`, `self`), adding the joins it needs.
    ///
    /// - Throws: ``FetchError`` for unknown keys, a to-many or transient relationship on the way
    ///   or at the end, or an attribute followed by more keys.
    mutating func resolve(_ path: String) throws -> ResolvedKeyPath {
        if path == FetchExpression.selfKeyPath { return .object(entity, column: "\(self.alias).\(layout.keyColumn)") }
        let keys = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var current = entity
        var alias = self.alias
        for (index, key) in keys.enumerated() {
            let isLast = index == keys.count - 1
            if isLast, let attribute = current.attribute(named: key) {
                guard !attribute.isTransient else {
                    throw FetchError.unsupportedKeyPath(
                        entity: entity.name, keyPath: path, reason: "\"\(key)\" is transient and not stored")
                }
                return .attribute(attribute, column: "\(alias).\(quote(layout.column(of: attribute)))")
            }
            guard let relationship = current.relationship(named: key) else {
                throw FetchError.unknownKeyPath(entity: entity.name, keyPath: path)
            }
            let destination = model.destination(of: relationship)
            switch layout.storage(of: relationship) {
            case .foreignKey(let column) where isLast:
                return .object(destination, column: "\(alias).\(quote(column))")
            case .foreignKey(let column):
                alias = join(
                    path: keys[...index].joined(separator: "."), destination: destination,
                    on: "\(alias).\(quote(column))")
                current = destination
            case .inverseForeignKey, .joinTable:
                throw FetchError.toManyKeyPath(entity: entity.name, keyPath: path, relationship: key)
            case .transient:
                throw FetchError.unsupportedKeyPath(
                    entity: entity.name, keyPath: path, reason: "\"\(key)\" is transient and not stored")
            }
        }
        throw FetchError.unknownKeyPath(entity: entity.name, keyPath: path)
    }

    /// Splits `path` at its first to-many relationship (`manager.employees.age` → the owner
    /// column `t0."manager"`, `employees`, `age`), adding the joins of the to-one hops before it.
    ///
    /// - Throws: ``FetchError`` for unknown keys, or ``FetchError/invalidComparison(_:)`` when
    ///   the key path reaches no to-many relationship.
    mutating func collection(_ path: String) throws -> CollectionHop {
        let keys = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var current = entity
        for (index, key) in keys.enumerated() {
            guard let relationship = current.relationship(named: key) else {
                if current.attribute(named: key) != nil { break }
                throw FetchError.unknownKeyPath(entity: entity.name, keyPath: path)
            }
            guard relationship.isToMany else {
                current = model.destination(of: relationship)
                continue
            }
            if relationship.isTransient {
                throw FetchError.unsupportedKeyPath(
                    entity: entity.name, keyPath: path, reason: "\"\(key)\" is transient and not stored")
            }
            let prefix = keys[..<index].joined(separator: ".")
            let owner: String
            if prefix.isEmpty {
                owner = "\(alias).\(layout.keyColumn)"
            } else if case .object(_, let column) = try resolve(prefix) {
                owner = column
            } else {
                throw FetchError.unknownKeyPath(entity: entity.name, keyPath: path)
            }
            return CollectionHop(
                ownerColumn: owner, relationship: relationship, rest: keys[(index + 1)...].joined(separator: "."))
        }
        throw FetchError.invalidComparison("\(entity.name).\(path) goes through no to-many relationship")
    }

    /// The alias of the join for `path`, adding the join when it is new.
    private mutating func join(path: String, destination: ModelEntity, on foreignKey: String) -> String {
        if let index = joins.firstIndex(where: { $0.path == path }) { return "\(joinPrefix)\(index + 1)" }
        let alias = "\(joinPrefix)\(joins.count + 1)"
        joins.append(
            Join(
                path: path,
                sql:
                    "LEFT JOIN \(quote(layout.table(of: destination))) \(alias) ON \(alias).\(layout.keyColumn) = \(foreignKey)"
            ))
        return alias
    }

    private func quote(_ identifier: String) -> String {
        SQLiteIdentifier.quote(identifier)
    }
}
