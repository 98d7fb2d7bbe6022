// The reader and mapping stages of an import, overlapped with writing (docs/Architecture.md): a
// reader thread reads a source's records (from its file, or from the spill of a pass shared with
// an earlier source: RecordFeed) and prepares them for their mapping (field access and
// coercion, which never touch a context) into batches in a small bounded queue that the
// writing thread drains. A batch holds `batchSize` records, or fewer when they name many keys
// (PreparedBatch `isFull`).
// Invariants: at most `capacity` batches wait in the queue (memory stays bounded); the reader
// thread owns its RecordFeed and reader (they never cross threads), only Sendable records and
// prepared batches do; the queue always ends with `.end` or `.failure`, after every record read before
// the failure. Batches the writing thread is done with come back through `recycle`: the reader
// thread empties them (releasing their records, which it has time to spare for) and fills them
// again, so their buffers are allocated once per run, not once per batch.
import Dispatch
import Foundation
import RecordReaders
import Synchronization

/// Reads and prepares a source's records on its own thread and hands out batches.
final class RecordStage: Sendable {
    enum Element: Sendable {
        /// The mapping with its field paths resolved against the source (CSV header names become columns).
        case mapping(CompiledMapping)
        case batch(PreparedBatch)
        case end
        case failure(RecordReaderError)
    }

    private let elements = Mutex<[Element]>([])
    private let available = DispatchSemaphore(value: 0)
    private let free: DispatchSemaphore
    private let capacity: Int
    private let cancelled = Atomic<Bool>(false)
    /// Batches the writing thread is done with, for the reader thread to fill again.
    private let recycled = Mutex<[PreparedBatch]>([])

    /// What the object path needs to make prepared records whole (on the reader thread, when
    /// every batch goes through objects).
    struct ObjectForm: Sendable {
        let mappings: PlanMappings
        /// The source file, for positions.
        let file: String
    }

    /// Starts reading `input` in batches of `batchSize`, skipping the first `skip` records and
    /// preparing the others for `mapping` — and, with `objects`, making them whole for the object
    /// path too; the first element is `.mapping` with `mapping`'s fields resolved against the source.
    init(
        input: RecordInput, batchSize: Int, skip: Int, mapping: CompiledMapping, objects: ObjectForm? = nil,
        capacity: Int = 1
    ) {
        self.capacity = capacity
        // Created at zero and raised to `capacity`: libdispatch traps when a semaphore is freed
        // below its initial value, which a cancelled queue's may be.
        self.free = DispatchSemaphore(value: 0)
        for _ in 0..<capacity { free.signal() }
        let thread = Thread { [self] in
            self.produce(input: input, batchSize: batchSize, skip: skip, mapping: mapping, objects: objects)
        }
        thread.name = "seedkit.reader"
        thread.stackSize = 4 << 20
        thread.start()
    }

    /// The next element; blocks until the reader has one.
    func next() -> Element {
        available.wait()
        let element = elements.withLock { $0.removeFirst() }
        free.signal()
        return element
    }

    /// Hands back a batch the writing thread is done with, for the reader thread to empty and
    /// fill again.
    func recycle(_ batch: consuming PreparedBatch) {
        let batch = batch
        recycled.withLock { $0.append(batch) }
    }

    /// Stops the reader thread (for runs that end early) and lets it exit.
    func cancel() {
        cancelled.store(true, ordering: .relaxed)
        for _ in 0..<capacity { free.signal() }
    }

    /// `mapping` with its top-level fields resolved against `source` (a CSV file's header names
    /// become columns), read without going further.
    static func resolve(
        _ mapping: CompiledMapping, in source: InputSource, format: RecordFormat?, options: ReaderOptions
    )
        throws(RecordReaderError) -> CompiledMapping
    {
        let reader = try RecordReaderFactory.open(source, format: format, options: options)
        return try resolve(mapping, with: reader)
    }

    /// `mapping` with its top-level fields resolved against `reader`'s source.
    static func resolve(_ mapping: CompiledMapping, with reader: borrowing any RecordReader)
        throws(RecordReaderError) -> CompiledMapping
    {
        var resolved: [FieldPath] = []
        for field in mapping.topLevelFields {
            resolved.append(try reader.resolve(field))
        }
        return mapping.resolving(resolved)
    }

    private func put(_ element: Element) -> Bool {
        free.wait()
        guard !cancelled.load(ordering: .relaxed) else { return false }
        elements.withLock { $0.append(element) }
        available.signal()
        return true
    }

    /// An empty batch: a recycled one emptied here, or a new one.
    private func emptyBatch() -> PreparedBatch {
        guard var batch = recycled.withLock({ $0.popLast() }) else { return PreparedBatch() }
        batch.removeAll()
        return batch
    }

    private func produce(
        input: RecordInput, batchSize: Int, skip: Int, mapping: CompiledMapping, objects: ObjectForm?
    ) {
        var preparer = RecordPreparer()
        var batch = PreparedBatch()
        do throws(RecordReaderError) {
            var feed = try input.open()
            let resolvedMapping = try feed.resolve(mapping)
            guard put(.mapping(resolvedMapping)) else { return }
            var skipped = 0
            while let result = try feed.nextResult() {
                batch.bytesConsumed = feed.bytesConsumed
                if skipped < skip {
                    skipped += 1
                    continue
                }
                guard case .success(let record) = result else {
                    if case .failure(let error) = result {
                        batch.broken.append((batch.records.count, RecordError(error)))
                    }
                    if batch.isFull(batchSize: batchSize) {
                        guard put(.batch(batch)) else { return }
                        batch = emptyBatch()
                    }
                    continue
                }
                preparer.prepare(record, mapping: resolvedMapping, into: &batch)
                if let objects {
                    let entry = batch.recordEntries[batch.records.count - 1]
                    batch.objects.append(
                        entry < 0
                            ? nil : batch.object(entry, mappings: objects.mappings, file: objects.file, record: record))
                }
                if batch.isFull(batchSize: batchSize) {
                    guard put(.batch(batch)) else { return }
                    batch = emptyBatch()
                }
            }
            if batch.readCount > 0 {
                guard put(.batch(batch)) else { return }
            }
            _ = put(.end)
        } catch {
            if batch.readCount > 0 {
                guard put(.batch(batch)) else { return }
            }
            _ = put(.failure(error))
        }
    }
}
