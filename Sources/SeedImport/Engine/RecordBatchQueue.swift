// Parsing overlapped with writing (docs/Architecture.md): a reader thread reads records and prepares them
// (field access and coercion, which never touch a context) into batches in a small bounded
// queue that the writing thread drains.
// Invariants: at most `capacity` batches wait in the queue (memory stays bounded); the reader
// thread owns its RecordReader (it never crosses threads), only Sendable records and prepared
// values do; a broken record the reader skipped travels in its batch as a refused record; the
// queue always ends with `.end` or `.failure`, after every record read before the failure.
// Batches the writing thread is done with come back through `recycle` and are freed on the
// reader thread, which has time to spare, rather than on the writing one.
import Dispatch
import Foundation
import RecordReaders
import Synchronization

/// A record and what preparing it gave: its values, or why it does not fit.
struct PreparedRecord: Sendable {
    /// The record; `nil` for a broken record the reader skipped (its error holds the raw text).
    let record: SourceRecord?
    let prepared: Result<PreparedObject, RecordError>
}

/// A batch of prepared records, with the reader's progress after reading them.
struct RecordBatch: Sendable {
    let records: [PreparedRecord]
    let bytesConsumed: Int
}

/// A batch the writing thread is done with, with the records it accepted from it.
struct RecycledBatch: Sendable {
    let batch: RecordBatch
    let prepared: [(PreparedObject, SourceRecord)]
}

/// Reads and prepares a source's records on its own thread and hands out batches.
final class RecordBatchQueue: Sendable {
    enum Element: Sendable {
        /// The mapping with its field paths resolved against the source (CSV header names become columns).
        case mapping(CompiledMapping)
        case batch(RecordBatch)
        case end
        case failure(RecordReaderError)
    }

    private let elements = Mutex<[Element]>([])
    private let available = DispatchSemaphore(value: 0)
    private let free: DispatchSemaphore
    private let capacity: Int
    private let cancelled = Atomic<Bool>(false)
    /// What the writing thread is done with, freed by the reader thread.
    private let recycled = Mutex<[any Sendable]>([])

    /// Starts reading `source` in batches of `batchSize`, skipping the first `skip` records and
    /// preparing the others for `mapping`; the first element is `.mapping` with `mapping`'s
    /// fields resolved against the source.
    init(
        source: InputSource, format: RecordFormat?, options: ReaderOptions, batchSize: Int, skip: Int,
        mapping: CompiledMapping, capacity: Int = 1
    ) {
        self.capacity = capacity
        // Created at zero and raised to `capacity`: libdispatch traps when a semaphore is freed
        // below its initial value, which a cancelled queue's may be.
        self.free = DispatchSemaphore(value: 0)
        for _ in 0..<capacity { free.signal() }
        let thread = Thread { [self] in
            self.produce(
                source: source, format: format, options: options, batchSize: batchSize, skip: skip, mapping: mapping)
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

    /// Hands back what the writing thread is done with (a batch, and anything built from it),
    /// so that the reader thread frees it.
    func recycle(_ garbage: sending any Sendable) {
        recycled.withLock { $0.append(garbage) }
    }

    /// Stops the reader thread (for runs that end early) and lets it exit.
    func cancel() {
        cancelled.store(true, ordering: .relaxed)
        for _ in 0..<capacity { free.signal() }
    }

    private func put(_ element: Element) -> Bool {
        free.wait()
        guard !cancelled.load(ordering: .relaxed) else { return false }
        elements.withLock { $0.append(element) }
        available.signal()
        let garbage = recycled.withLock { items in
            defer { items = [] }
            return items
        }
        _ = consume garbage
        return true
    }

    private func produce(
        source: InputSource, format: RecordFormat?, options: ReaderOptions, batchSize: Int, skip: Int,
        mapping: CompiledMapping
    ) {
        let preparer = RecordPreparer()
        var resolvedMapping = mapping
        var records: [PreparedRecord] = []
        records.reserveCapacity(batchSize)
        var bytesConsumed = 0
        do throws(RecordReaderError) {
            var reader = try RecordReaderFactory.open(source, format: format, options: options)
            var resolved: [FieldPath] = []
            for field in mapping.topLevelFields {
                resolved.append(try reader.resolve(field))
            }
            resolvedMapping = mapping.resolving(resolved)
            guard put(.mapping(resolvedMapping)) else { return }
            var skipped = 0
            while let result = try reader.nextResult() {
                bytesConsumed = reader.bytesConsumed
                if skipped < skip {
                    skipped += 1
                    continue
                }
                let prepared: Result<PreparedObject, RecordError>
                switch result {
                case .success(let record):
                    do {
                        prepared = .success(try preparer.prepare(record, mapping: resolvedMapping))
                    } catch {
                        prepared = .failure(error)
                    }
                case .failure(let broken):
                    prepared = .failure(RecordError(broken))
                }
                records.append(PreparedRecord(record: try? result.get(), prepared: prepared))
                if records.count == batchSize {
                    guard put(.batch(RecordBatch(records: records, bytesConsumed: reader.bytesConsumed))) else {
                        return
                    }
                    records = []
                    records.reserveCapacity(batchSize)
                }
            }
            if !records.isEmpty {
                guard put(.batch(RecordBatch(records: records, bytesConsumed: reader.bytesConsumed))) else { return }
            }
            _ = put(.end)
        } catch {
            if !records.isEmpty {
                guard put(.batch(RecordBatch(records: records, bytesConsumed: bytesConsumed))) else { return }
            }
            _ = put(.failure(error))
        }
    }
}
