// ByteInput: a sliding window over an InputSource, filled in fixed-size chunks.
//
// The window is one buffer allocated once (chunk size + a small slack). `refill` discards
// the bytes before `position`, moves the unconsumed bytes to the front and reads the next
// chunk after them, so memory stays bounded whatever the input size.
// Invariants: 0 <= position <= limit <= capacity; `baseOffset` is the file offset of
// `base[0]`; a parser may keep at most `ByteInput.maxLookahead` unconsumed bytes across a
// refill (`ensure(n)` with n <= maxLookahead), which always leaves room for a whole chunk.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `read(2)`, named apart from `InputStorage.read`.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

/// Owns the window buffer and the open file, and frees them.
private final class InputStorage {
    let buffer: UnsafeMutablePointer<UInt8>
    let capacity: Int
    let chunkSize: Int
    private var descriptor: Int32 = -1
    private let memory: [UInt8]
    private var memoryOffset = 0

    init(source: InputSource, chunkSize: Int) throws(RecordReaderError) {
        self.chunkSize = max(chunkSize, 1)
        self.capacity = self.chunkSize + ByteInput.maxLookahead
        switch source {
        case .file(let path):
            memory = []
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            if descriptor < 0 {
                throw RecordReaderError(.io, "cannot open: \(InputStorage.lastError())", file: path)
            }
        case .bytes(let bytes, _):
            memory = bytes
        }
        buffer = .allocate(capacity: capacity)
    }

    deinit {
        buffer.deallocate()
        if descriptor >= 0 { close(descriptor) }
    }

    /// Reads up to one chunk into `destination` (at most `room` bytes); 0 at end of input.
    func read(into destination: UnsafeMutablePointer<UInt8>, room: Int, name: String) throws(RecordReaderError) -> Int {
        let wanted = min(room, chunkSize)
        guard descriptor >= 0 else {
            let count = min(wanted, memory.count - memoryOffset)
            guard count > 0 else { return 0 }
            memory.withUnsafeBufferPointer { source in
                if let start = source.baseAddress {
                    destination.update(from: start + memoryOffset, count: count)
                }
            }
            memoryOffset += count
            return count
        }
        while true {
            let count = systemRead(descriptor, destination, wanted)
            if count >= 0 { return count }
            if errno != EINTR {
                throw RecordReaderError(.io, "cannot read: \(InputStorage.lastError())", file: name)
            }
        }
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}

/// A chunked, forward-only window over the bytes of an input.
struct ByteInput {
    /// The most bytes a parser may keep unconsumed across a refill.
    static let maxLookahead = 16

    /// The input's name for positions and errors.
    let name: String
    private let storage: InputStorage
    /// The window; valid bytes are `base[position ..< limit]`.
    let base: UnsafeMutablePointer<UInt8>
    /// The next unread byte.
    var position = 0
    /// One past the last valid byte.
    private(set) var limit = 0
    /// The file offset of `base[0]`.
    private(set) var baseOffset = 0
    /// No more bytes will come from the source.
    private(set) var isExhausted = false

    /// Opens `source`; throws an `.io` error when a file cannot be opened.
    init(_ source: InputSource, chunkSize: Int) throws(RecordReaderError) {
        name = source.name
        storage = try InputStorage(source: source, chunkSize: chunkSize)
        base = storage.buffer
    }

    /// The file offset of the next unread byte (bytes consumed so far).
    @inline(__always)
    var offset: Int { baseOffset + position }

    /// The file offset of window index `index`.
    @inline(__always)
    func offset(of index: Int) -> Int { baseOffset + index }

    /// Reads the next chunk after the unconsumed bytes; `false` at the end of the input.
    @discardableResult
    mutating func refill() throws(RecordReaderError) -> Bool {
        if isExhausted { return false }
        let kept = limit - position
        if position > 0 {
            if kept > 0 { memmove(base, base + position, kept) }
            baseOffset += position
            position = 0
            limit = kept
        }
        let count = try storage.read(into: base + limit, room: storage.capacity - limit, name: name)
        if count == 0 {
            isExhausted = true
            return false
        }
        limit += count
        return true
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
}
