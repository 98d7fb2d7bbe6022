// ReadAheadReader: runs another reader on a thread of its own, so parsing a record overlaps
// with whatever the caller does with the one before (an import prepares and writes it).
//
// The reader thread starts at the first `next` (a reader opened only to `resolve` paths costs
// no thread) and hands records over in blocks, through a queue of at most `blockCapacity`
// blocks of at most `recordsPerBlock` records or `bytesPerBlock` record bytes, so memory stays
// bounded. The caller sees exactly what the wrapped reader gives, in the same order: records,
// a recoverable error after which reading goes on, the error that ends reading, then `nil`;
// `recordsRead` and `bytesConsumed` are those after the last record handed out.
// Invariants: the wrapped reader is used by the reader thread alone once it has started;
// dropping the last copy of a ReadAheadReader stops its thread at its next block, which then
// releases the wrapped reader (and its file).

import Dispatch
import Foundation
import Synchronization

/// Reads records of a reader ahead, on a thread of its own. Copies of a ReadAheadReader share
/// that thread and its queue (each record goes to whichever copy asks first).
///
/// ```swift
/// var reader = ReadAheadReader(try XMLReader(.file("catalog.xml"), options: options))
/// while let record = try reader.next() { prepare(record) }   // the next ones are parsed meanwhile
/// ```
public struct ReadAheadReader<Base: RecordReader>: RecordReader {
    /// Records returned so far.
    public private(set) var recordsRead = 0
    /// Bytes of the input the wrapped reader had consumed when it read the last record returned.
    public private(set) var bytesConsumed = 0
    /// The input's name.
    public let fileName: String
    private let handle: Handle<Base>
    /// The rest of the block being handed out, last item first (so each is moved out by
    /// `popLast`, not copied).
    private var block: [Item] = []
    private var finished = false

    /// Wraps `base`, which must not be used otherwise afterwards.
    public init(_ base: Base) {
        fileName = base.fileName
        bytesConsumed = base.bytesConsumed
        handle = Handle(base)
    }

    /// The next record, or `nil` after the last one (see `RecordReader.next`).
    public mutating func next() throws(RecordReaderError) -> SourceRecord? {
        while true {
            if let item = block.popLast() {
                bytesConsumed = item.bytesConsumed
                switch item.outcome {
                case .record(let record):
                    recordsRead += 1
                    return record
                case .failure(let failure):
                    if !failure.error.isRecoverable { finished = true }
                    throw failure.error
                case .end:
                    finished = true
                    return nil
                }
            }
            if finished { return nil }
            block = handle.nextBlock()
            block.reverse()
        }
    }

    /// `path` as the wrapped reader resolves it; call it before the first `next` (afterwards the
    /// wrapped reader belongs to the reader thread, and `path` is returned unchanged).
    public func resolve(_ path: FieldPath) throws(RecordReaderError) -> FieldPath {
        try handle.resolve(path)
    }
}

/// One thing the reader thread read: a record, an error, or the end; with the bytes consumed.
private struct Item: Sendable {
    enum Outcome: Sendable {
        case record(SourceRecord)
        case failure(Failure)
        case end
    }

    /// An error, boxed so that an item stays as small as a record.
    final class Failure: Sendable {
        let error: RecordReaderError
        init(_ error: RecordReaderError) { self.error = error }
    }

    let outcome: Outcome
    let bytesConsumed: Int
}

/// What the reader thread reads from.
private protocol ReadAheadSource: Sendable {
    func read(into channel: Channel)
}

/// The wrapped reader until the reader thread takes it.
// @unchecked Sendable: `base` is touched only under `lock` before the thread starts (resolve)
// and by the reader thread alone after it took it out (`start`), never by two threads at once.
private final class ReaderBox<Base: RecordReader>: ReadAheadSource, @unchecked Sendable {
    private let lock = NSLock()
    private var base: Base?

    init(_ base: Base) { self.base = base }

    func resolve(_ path: FieldPath) throws(RecordReaderError) -> FieldPath {
        lock.lock()
        defer { lock.unlock() }
        guard let base else { return path }
        return try base.resolve(path)
    }

    /// Takes the reader out (once) and reads it into `channel`, on the calling thread.
    func read(into channel: Channel) {
        lock.lock()
        let taken = base
        base = nil
        lock.unlock()
        guard var reader = taken else { return }
        channel.produce(from: &reader)
    }
}

/// Owned by the ReadAheadReader (and its copies) alone: when the last copy goes, the reader
/// thread is told to stop.
private final class Handle<Base: RecordReader>: Sendable {
    let channel = Channel()
    private let box: ReaderBox<Base>
    private let started = Atomic<Bool>(false)

    init(_ base: Base) { box = ReaderBox(base) }

    func resolve(_ path: FieldPath) throws(RecordReaderError) -> FieldPath { try box.resolve(path) }

    /// The next block of items, once the reader thread has read it.
    func nextBlock() -> [Item] {
        startIfNeeded()
        return channel.take()
    }

    /// Starts the reader thread, once.
    private func startIfNeeded() {
        guard !started.exchange(true, ordering: .relaxed) else { return }
        // An existential, so the thread's closure captures no generic metatype.
        let source: any ReadAheadSource = box
        let channel = self.channel
        let thread = Thread { source.read(into: channel) }
        thread.name = "seedkit.read-ahead"
        thread.stackSize = 4 << 20
        thread.start()
    }

    deinit { channel.cancel() }
}

/// The bounded queue of blocks between the reader thread and the caller.
private final class Channel: Sendable {
    /// Records per block handed over by the reader thread.
    static let recordsPerBlock = 256
    /// Record storage bytes after which a block is handed over before it is full.
    static let bytesPerBlock = 1 << 20
    /// Blocks waiting in the queue at most.
    static let blockCapacity = 4

    private let blocks = Mutex<[[Item]]>([])
    private let available = DispatchSemaphore(value: 0)
    private let free: DispatchSemaphore
    private let cancelled = Atomic<Bool>(false)

    init() {
        // Created at zero and raised: libdispatch traps when a semaphore is freed below its
        // initial value, which a cancelled channel's may be.
        free = DispatchSemaphore(value: 0)
        for _ in 0..<Channel.blockCapacity { free.signal() }
    }

    /// The next block; waits for the reader thread to queue one.
    func take() -> [Item] {
        available.wait()
        let block = blocks.withLock { $0.removeFirst() }
        free.signal()
        return block
    }

    /// Stops the reader thread at its next block.
    func cancel() {
        cancelled.store(true, ordering: .relaxed)
        for _ in 0..<Channel.blockCapacity { free.signal() }
    }

    /// Reads `reader` to its end (or to the error that ends it) in blocks.
    func produce<Base: RecordReader>(from reader: inout Base) {
        var block: [Item] = []
        block.reserveCapacity(Channel.recordsPerBlock)
        var blockBytes = 0
        while true {
            let outcome: Item.Outcome
            do {
                if let record = try reader.next() {
                    outcome = .record(record)
                    blockBytes += record.storage.byteCapacity
                } else {
                    outcome = .end
                }
            } catch {
                outcome = .failure(Item.Failure(error))
            }
            block.append(Item(outcome: outcome, bytesConsumed: reader.bytesConsumed))
            let isLast: Bool
            switch outcome {
            case .record: isLast = false
            case .failure(let failure): isLast = !failure.error.isRecoverable
            case .end: isLast = true
            }
            if isLast || block.count >= Channel.recordsPerBlock || blockBytes >= Channel.bytesPerBlock {
                guard put(block) else { return }
                if isLast { return }
                block = []
                block.reserveCapacity(Channel.recordsPerBlock)
                blockBytes = 0
            }
        }
    }

    /// Queues `block`; `false` when the caller is gone.
    private func put(_ block: [Item]) -> Bool {
        free.wait()
        guard !cancelled.load(ordering: .relaxed) else { return false }
        blocks.withLock { $0.append(block) }
        available.signal()
        return true
    }
}
