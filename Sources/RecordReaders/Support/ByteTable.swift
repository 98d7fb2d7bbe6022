// ByteTable: a 256-entry lookup table marking the bytes a scanning loop must stop at.
// Owned memory, immutable after creation; loops read it through `pointer` without bounds checks.

/// Marks a set of bytes for branch-light scanning: `table.pointer[Int(byte)] != 0`.
final class ByteTable {
    let pointer: UnsafeMutablePointer<UInt8>

    /// A table marking `bytes`.
    init(marking bytes: [UInt8]) {
        pointer = .allocate(capacity: 256)
        pointer.initialize(repeating: 0, count: 256)
        for byte in bytes { pointer[Int(byte)] = 1 }
    }

    deinit { pointer.deallocate() }
}
