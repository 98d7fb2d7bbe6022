// One pass of a migration, compiled: how every row, column and link of the new file is made from
// the source file, as SQL pieces over the source attached as `src` (read-only) and the new file
// as `main`. Inferred steps (InferredPassCompiler) and mapping models (MappingPassCompiler)
// both compile to it, and one builder (PassBuilder) runs it, so a store layout that names
// tables, columns, entity numbers and link storage differently changes the SQL, not the engine.
// Invariants: every name in the SQL comes from the two layouts and is quoted; `s` is the
// source row of a row group; constants are bound parameters, never spliced into the text.
import GraphStore

/// A compiled pass.
struct PassProgram {
    /// The source file's layout (its model is the pass's source version).
    let source: StoreLayout
    /// The new file's layout.
    let destination: StoreLayout
    /// Which rows go where, in the order they are written.
    var rowGroups: [RowGroup]
    /// Destination root tables (by root entity index) whose rows are the source table's rows as
    /// they are: copied whole, with their indexes created before the copy.
    var wholeTables: Set<Int> = []
    /// Identity tables (mapping passes): built before any row is written.
    var identityTables: [IdentityTable]
    /// The entity mappings' names, by index (mapping passes).
    var mappingNames: [String] = []
    /// Join tables copied from the source as they are (inferred passes).
    var joinCopies: [JoinCopy]
    /// Relationships whose links are gathered, checked and written after the rows.
    var linkPlans: [LinkPlan]
    /// Counts of data the pass drops, made before it writes (for the report and the data-loss gate).
    var dataLoss: [DataLossProbe]
    /// Checks on the source that stop the pass before it writes.
    var sourceChecks: [RowCheck]
    /// Checks on the new file after its rows and links are written.
    var destinationChecks: [RowCheck]
    /// Attributes whose validation rules are checked on the new file (mapping passes).
    var validatedAttributes: [(entity: ModelEntity, attribute: ModelAttribute)]
    /// Source entities no row group reads, and how many objects each loses (filled when counted).
    var droppedEntities: [ModelEntity]
    /// Warnings of the compile (a colon-less selector, a skipped policy).
    var warnings: [String]
    /// Whether the source's rows, keys and links are kept as they are: only the model's metadata changes.
    var keepsEveryRow: Bool
}

/// The rows one destination root table receives from one source root table.
struct RowGroup {
    /// The source table's root entity (source model).
    let sourceRoot: ModelEntity
    /// The destination table's root entity (destination model).
    let destinationRoot: ModelEntity
    /// The concrete source entities read, each with the destination entity its rows become.
    var members: [RowMember]
    /// How source rows find their destination keys: kept, or through an identity table.
    let identity: RowIdentity
    /// Whether rows keep their source row version (inferred) or start at 1 (mapping models).
    let keepsVersion: Bool
    /// The entity mapping the group runs (mapping passes), for its name and policy.
    let mapping: Int?
}

/// The rows of one concrete source entity in a row group.
struct RowMember {
    let sourceEntity: ModelEntity
    let destinationEntity: ModelEntity
    /// Each written destination column's value for this entity's rows.
    var values: [String: ColumnValue]
}

/// A destination column's value for a source row `s`.
enum ColumnValue: Hashable {
    /// SQL over `s` (and the attached source).
    case sql(String)
    /// A bound constant.
    case constant(AttributeValue)
    /// SQL over `s`, with a bound constant where it is NULL.
    case coalesced(String, AttributeValue)
}

/// How the rows of a source table map to keys of the new file.
enum RowIdentity {
    /// Rows keep their keys; a source key stands for a new row when its row's entity is one of
    /// `numbers` (source entity numbers) in the source table `table`.
    case sourceKeys(table: String, numbers: [Int64])
    /// An identity table `(src, dst)` on the pass's connection.
    case table(String)

    /// A join that keeps `expression` (a source key) only when it stands for a new row, and the
    /// new row's key; `alias` names the join.
    func join(_ expression: String, alias: String, source layout: StoreLayout) -> (join: String, key: String) {
        switch self {
        case .sourceKeys(let table, let numbers):
            return (
                "JOIN src.\(SQLiteIdentifier.quote(table)) AS \(alias) ON \(alias).\(layout.keyColumn) = \(expression)"
                    + " AND \(alias).\(layout.entityColumn) IN (\(StoreLayout.list(numbers)))",
                expression
            )
        case .table(let name):
            return (
                "JOIN temp.\(SQLiteIdentifier.quote(name)) AS \(alias) ON \(alias).src = \(expression)", "\(alias).dst"
            )
        }
    }
}

/// An identity table of a mapping pass: which new row each source row of one entity mapping becomes.
struct IdentityTable {
    /// The TEMP table's name.
    let name: String
    /// The entity mapping (index into the mapping model's entity mappings).
    let mapping: Int
    /// The source entity read (concrete; exactly its own rows).
    let sourceEntity: ModelEntity?
    /// The destination root the keys are for.
    let destinationRoot: ModelEntity?
    /// Whether the rows keep their source keys; else fresh keys above every kept one.
    let keepsKeys: Bool
    /// The TEMP table of admitted source keys, when the mapping has a filter predicate.
    var admitted: String?
    /// The mapping's filter predicate (`sourcefilterpredicatestring`), if any.
    var filter: FetchPredicate?
    /// Whether the mapping's SQL creates one row per source row (false: a policy creates them).
    let createsRows: Bool
}

/// A join table copied from the source: its rows, turned and filtered as needed.
struct JoinCopy {
    /// The destination table.
    let table: String
    /// The source table.
    let sourceTable: String
    /// Destination columns and the source column each takes (same order).
    let columns: [(destination: String, source: String)]
    /// Conditions on the source row `j` (empty: every row).
    let conditions: [String]
    /// The relationship, for progress (`Item.tags`).
    let subject: String
}

/// A relationship pair whose links are gathered in a TEMP table, checked, then written.
struct LinkPlan {
    /// The pair's first relationship (destination model); links are (owner, member) along it.
    let primary: ModelRelationship
    /// Its inverse, if any.
    let inverse: ModelRelationship?
    /// `Entity.relationship` of the primary.
    let subject: String
    /// SQL statements that fill the link table (`?L` stands for its quoted name).
    var contributions: [String]
    /// The rule when an owner has several members and the primary is to-one.
    var ownerSide: SideRule?
    /// The rule when a member has several owners and the inverse is to-one.
    var memberSide: SideRule?
    /// The name policies use for each side (`Maker.cars`), to add the links they made.
    let policyNames: (primary: String, inverse: String?)
    /// Owners whose number of members must lie in a relationship's range (mapping passes).
    var countChecks: [CountCheck] = []
}

/// A to-many's range of members, checked on the links of a mapping pass.
struct CountCheck {
    /// `Entity.relationship`.
    let subject: String
    /// Whether the to-many is the pair's primary side (its owners are the links' owners).
    let alongPrimary: Bool
    /// The new table of its owners, and their entity numbers.
    let table: String
    let numbers: [Int64]
    let minimum: Int
    /// 0: no maximum.
    let maximum: Int
}

/// What a to-one side that would hold several destinations means.
struct SideRule {
    let rule: DataCheckFailure.Rule
    /// `Entity.relationship` of the to-one side.
    let subject: String
    /// Whether `truncateToMany` may keep the first and drop the rest.
    let truncatable: Bool
}

/// A count of data the pass drops.
struct DataLossProbe {
    /// `Item.photoData`, `Measurement`, `Item.tags`.
    let subject: String
    /// `values`, `objects` or `links`.
    let unit: String
    /// One-row, one-column SQL over `src`.
    let sql: String
}

/// A check that counts offending rows and names the first.
struct RowCheck {
    let rule: DataCheckFailure.Rule
    let subject: String
    /// `SELECT count(*), min(key) …` over `src` (source checks) or `main` (destination checks).
    let sql: String
}
