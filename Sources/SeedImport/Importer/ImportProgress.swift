// Progress of a running import, delivered as an AsyncSequence to library callers and drawn by
// the CLI as a progress bar.

/// Where a running import is.
public struct ImportProgress: Sendable, Hashable {
    /// The source being read (its file name).
    public var source: String
    /// The 0-based index of the source and how many there are.
    public var sourceIndex: Int
    /// The number of sources.
    public var sourceCount: Int
    /// Bytes of the current source read so far.
    public var bytesRead: Int
    /// The current source's size in bytes (0 when unknown).
    public var bytesTotal: Int
    /// Records read so far, all sources together.
    public var records: Int
    /// Seconds since the run started.
    public var seconds: Double
    /// The phase: `reading`, `references` (the deferred pass), `indexing`, `done`.
    public var phase: String

    /// Records per second so far.
    public var recordsPerSecond: Double { seconds > 0 ? Double(records) / seconds : 0 }

    /// Estimated seconds left for the current source, when its size is known.
    public var estimatedSecondsLeft: Double? {
        guard bytesTotal > 0, bytesRead > 0, seconds > 0 else { return nil }
        return seconds * Double(bytesTotal - bytesRead) / Double(bytesRead)
    }
}
