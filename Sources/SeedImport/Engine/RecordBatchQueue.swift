// Parsing overlapped with writing (DESIGN §2): a reader thread fills batches of records into a
// small bounded queue that the writing thread drains.
// Invariants: at most `capacity` batches wait in the queue (memory stays bounded); the reader
// thread owns its RecordReader (it never crosses threads), only Sendable records do; the queue
// always ends with `.end` or `.failure`, after every record read before the failure.
import Dispatch
import Foundation
import RecordReaders
import Synchronization

/// A batch of records, with the reader's progress after reading them.
struct RecordBatch: Sendable {
    let records: [Record]
    let bytesConsumed: Int
}

/// Reads a source on its own thread and hands out batches.
final class RecordBatchQueue: Sendable {
    enum Element: Sendable {
        /// The requested field paths, resolved against the source (CSV header names become columns).
        case fields([FieldPath])
        case batch(RecordBatch)
        case end
        case failure(RecordReaderError)
    }

    private let elements = Mutex<[Element]>([])
    private let available = DispatchSemaphore(value: 0)
    private let free: DispatchSemaphore
    private let capacity: Int
    private let cancelled = Atomic<Bool>(false)

    /// Starts reading `source` in batches of `batchSize`, skipping the first `skip` records;
    /// the first element is `.fields` with `fields` resolved against the source.
    init(
        source: InputSource, format: RecordFormat?, options: ReaderOptions, batchSize: Int, skip: Int,
        fields: [FieldPath], capacity: Int = 2
    ) {
        self.capacity = capacity
        self.free = DispatchSemaphore(value: capacity)
        let thread = Thread { [self] in
            self.produce(
                source: source, format: format, options: options, batchSize: batchSize, skip: skip, fields: fields)
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
        return true
    }

    private func produce(
        source: InputSource, format: RecordFormat?, options: ReaderOptions, batchSize: Int, skip: Int,
        fields: [FieldPath]
    ) {
        var records: [Record] = []
        records.reserveCapacity(batchSize)
        var bytesConsumed = 0
        do throws(RecordReaderError) {
            var reader = try RecordReaderFactory.open(source, format: format, options: options)
            var resolved: [FieldPath] = []
            for field in fields {
                resolved.append(try reader.resolve(field))
            }
            guard put(.fields(resolved)) else { return }
            var skipped = 0
            while let record = try reader.next() {
                bytesConsumed = reader.bytesConsumed
                if skipped < skip {
                    skipped += 1
                    continue
                }
                records.append(record)
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
