// Where a prepared record or reference came from, worked out only when it is needed (an error,
// or a reference waiting for the deferred pass). Working it out builds a JSON or XML path
// string; doing that for every record and field of a million-record import cost more than
// parsing the records.
import RecordReaders

/// The source position of a prepared record or value, resolved on demand.
enum PreparedPosition: Sendable {
    /// A record: its position is where it starts.
    case record(SourceRecord)
    /// A value of a record: its position is where the value starts.
    case value(FieldValue)
    /// A position known already (restored from a checkpoint).
    case known(SourcePosition)

    /// The position.
    var resolved: SourcePosition {
        switch self {
        case .record(let record): record.position
        case .value(let value): value.position
        case .known(let position): position
        }
    }
}
