// Where a running copy stands, reported after every committed batch (DeepCopyOptions.batchProgress):
// the entity (or relationship) being written, the source rows gone through so far and in all.

/// Where a running copy stands.
///
/// ```swift
/// var options = DeepCopyOptions()
/// options.batchProgress = { step in
///     print("\(step.entity): \(step.rows) of \(step.totalRows) rows")
/// }
/// ```
public struct CopyProgress: Sendable, Hashable {
    /// What a copy is writing.
    public enum Phase: String, Sendable, Hashable {
        /// The objects of an entity's table (with its sub-entities).
        case objects
        /// The pairs or positions of a to-many relationship.
        case links
        /// Nothing: the copy is complete.
        case done
    }

    /// What the last batch wrote.
    public var phase: Phase
    /// The entity whose objects (or whose relationship's links) the last batch wrote: the root
    /// entity of its table; empty when the copy is done.
    public var entity: String
    /// The relationship whose links the last batch wrote (with ``Phase/links``).
    public var relationship: String?
    /// Source rows (objects and join-table pairs) gone through so far, all entities together.
    public var rows: Int
    /// Source rows the copy goes through in all.
    public var totalRows: Int
    /// Seconds since the copy started.
    public var seconds: Double
    /// The counts so far.
    public var report: CopyReport

    /// A progress step.
    public init(
        phase: Phase, entity: String, relationship: String? = nil, rows: Int, totalRows: Int, seconds: Double,
        report: CopyReport
    ) {
        self.phase = phase
        self.entity = entity
        self.relationship = relationship
        self.rows = rows
        self.totalRows = totalRows
        self.seconds = seconds
        self.report = report
    }

    /// The share of rows gone through, from 0 to 1 (1 when there is nothing to copy).
    public var fraction: Double {
        totalRows > 0 ? min(1, Double(rows) / Double(totalRows)) : 1
    }

    /// Rows per second so far.
    public var rowsPerSecond: Double { seconds > 0 ? Double(rows) / seconds : 0 }

    /// Estimated seconds left, once some rows are done.
    public var estimatedSecondsLeft: Double? {
        guard rows > 0, totalRows > rows, seconds > 0 else { return nil }
        return seconds * Double(totalRows - rows) / Double(rows)
    }
}
