// ByteInput: a sliding window over the text of an InputSource, filled in fixed-size chunks.
//
// The window is one buffer (chunk size + a small slack). `refill` discards the bytes before
// `position`, moves the unconsumed bytes to the front and reads the next chunk after them, so
// memory stays bounded whatever the input size. A parser may ask to keep the bytes from an
// earlier offset (`retain(from:)`, which CSV uses to re-read a broken row's lines and to hand
// out its raw text): the window then grows to hold them until `releaseRetained()`, and shrinks
// back at the next refill after that.
// Invariants: 0 <= position <= limit <= capacity; `baseOffset` is the text offset of
// `base[0]`; without a retained offset a parser keeps at most `ByteInput.maxLookahead`
// unconsumed bytes across a refill (`ensure(n)` with n <= maxLookahead), which always leaves
// room for a whole chunk; a copied input gets its own window at its next refill, so copies
// never write into or free the window another copy reads.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The window's memory, owned by one ByteInput at a time (cloned when a copy would share it).
private final class WindowBuffer {
    let pointer: UnsafeMutablePointer<UInt8>
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        pointer = .allocate(capacity: capacity)
    }

    deinit { pointer.deallocate() }
}

/// A chunked, forward-only window over the text of an input.
struct ByteInput {
    /// The most bytes a parser may keep unconsumed across a refill.
    static let maxLookahead = 16

    /// The input's name for positions and errors.
    let name: String
    private let source: ByteSource
    private var window: WindowBuffer
    /// The window; valid bytes are `base[position ..< limit]`.
    private(set) var base: UnsafeMutablePointer<UInt8>
    /// The next unread byte.
    var position = 0
    /// One past the last valid byte.
    private(set) var limit = 0
    /// The text offset of `base[0]`.
    private(set) var baseOffset = 0
    /// No more bytes will come from the source.
    private(set) var isExhausted = false
    /// The text offset from which bytes are kept across refills, if any.
    private var retainedFrom: Int?

    /// Opens `source`; throws an `.io` error when a file cannot be opened.
    init(_ source: InputSource, chunkSize: Int) throws(RecordReaderError) {
        name = source.name
        self.source = try ByteSource(source, chunkSize: chunkSize)
        window = WindowBuffer(capacity: self.source.chunkSize + ByteInput.maxLookahead)
        base = window.pointer
    }

    /// The text offset of the next unread byte.
    @inline(__always)
    var offset: Int { baseOffset + position }

    /// The text offset of window index `index`.
    @inline(__always)
    func offset(of index: Int) -> Int { baseOffset + index }

    /// Bytes of the source consumed so far, for progress: the text offset, or for gzip input
    /// the compressed bytes inflated.
    var bytesConsumed: Int { source.compressedConsumed ?? offset }

    /// Reads the next chunk after the unconsumed (and retained) bytes; `false` at the end of
    /// the input.
    @discardableResult
    mutating func refill() throws(RecordReaderError) -> Bool {
        if isExhausted { return false }
        let keepFrom = retainedFrom.map { $0 - baseOffset } ?? position
        if keepFrom > 0 {
            let kept = limit - keepFrom
            if kept > 0 { memmove(base, base + keepFrom, kept) }
            baseOffset += keepFrom
            position -= keepFrom
            limit = kept
        }
        let usual = source.chunkSize + ByteInput.maxLookahead
        if window.capacity - limit < source.chunkSize {
            replaceWindow(capacity: max(limit + source.chunkSize, window.capacity * 2))
        } else if window.capacity > usual, limit + source.chunkSize <= usual {
            replaceWindow(capacity: usual)
        } else if !isKnownUniquelyReferenced(&window) {
            replaceWindow(capacity: window.capacity)
        }
        let count = try source.read(into: base + limit, room: window.capacity - limit)
        if count == 0 {
            isExhausted = true
            return false
        }
        limit += count
        return true
    }

    /// Moves the window's valid bytes into a new buffer of `capacity` bytes.
    private mutating func replaceWindow(capacity: Int) {
        let replacement = WindowBuffer(capacity: capacity)
        replacement.pointer.update(from: base, count: limit)
        window = replacement
        base = replacement.pointer
    }

    /// Makes at least `count` (<= maxLookahead) unread bytes available; `false` if the input
    /// ends first.
    @inline(__always)
    mutating func ensure(_ count: Int) throws(RecordReaderError) -> Bool {
        while limit - position < count {
            if !(try refill()) { return false }
        }
        return true
    }

    /// The next unread byte, reading a chunk if needed; `nil` at the end of the input.
    @inline(__always)
    mutating func peek() throws(RecordReaderError) -> UInt8? {
        if position < limit { return base[position] }
        return try ensure(1) ? base[position] : nil
    }

    // MARK: - Retained bytes

    /// Keeps every byte from text offset `start` (in the window, at or before `offset`) until
    /// `releaseRetained()`, so they can be read again (`rewind`) or copied (`bytes`).
    @inline(__always)
    mutating func retain(from start: Int) {
        retainedFrom = start
    }

    /// Lets refills discard the retained bytes again.
    @inline(__always)
    mutating func releaseRetained() {
        retainedFrom = nil
    }

    /// Moves back (or forward) to text offset `target`, which must be in the window.
    mutating func rewind(to target: Int) {
        position = target - baseOffset
    }

    /// The bytes between text offsets `start` and `end`, which must be in the window.
    func bytes(from start: Int, to end: Int) -> [UInt8] {
        Array(UnsafeBufferPointer(start: base + (start - baseOffset), count: end - start))
    }
}
