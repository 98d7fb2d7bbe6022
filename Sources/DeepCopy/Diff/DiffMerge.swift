// The comparison of one entity: the two stores' objects, sorted by identity, merged like two
// sorted lists. Objects with the same identity are compared property by property; an object
// whose identity the other store lacks is only in its store. Objects sharing an identity (unkeyed
// objects with the same attribute values) pair up in key order, the second one named `key'`, the
// third `key''` and so on.
// Invariant: identities compare bytewise, exactly as the scratch database sorted them.
import Foundation

/// Merges two sorted cursors into difference lines.
struct DiffMerge {
    let entity: String
    let properties: [String]

    /// Calls `report` with each difference in identity order until it returns false; false
    /// when it was stopped.
    func run(_ first: DiffRows, _ second: DiffRows, report: (String) throws -> Bool) throws -> Bool {
        var a = Side(cursor: first)
        var b = Side(cursor: second)
        try a.advance()
        try b.advance()
        while a.row != nil || b.row != nil {
            let order = Self.order(a.row?.identity, b.row?.identity)
            if order < 0, let row = a.row {
                guard try report("\(entity)[\(a.name(row))]: only in A") else { return false }
                try a.advance()
            } else if order > 0, let row = b.row {
                guard try report("\(entity)[\(b.name(row))]: only in B") else { return false }
                try b.advance()
            } else if let left = a.row, let right = b.row {
                for (index, property) in properties.enumerated() where left.values[index] != right.values[index] {
                    let line =
                        "\(entity)[\(a.name(left))].\(property): \(left.values[index] ?? "—") ≠ \(right.values[index] ?? "—")"
                    guard try report(line) else { return false }
                }
                try a.advance()
                try b.advance()
            }
        }
        return true
    }

    /// Bytewise order of two identities, an exhausted side (nil) last: negative, zero or positive.
    static func order(_ first: String?, _ second: String?) -> Int {
        switch (first, second) {
        case (nil, nil): return 0
        case (nil, _): return 1
        case (_, nil): return -1
        case (var first?, var second?):
            return first.withUTF8 { left in
                second.withUTF8 { right in
                    let common = min(left.count, right.count)
                    if common > 0, let a = left.baseAddress, let b = right.baseAddress {
                        let order = memcmp(a, b, common)
                        if order != 0 { return order < 0 ? -1 : 1 }
                    }
                    return left.count == right.count ? 0 : (left.count < right.count ? -1 : 1)
                }
            }
        }
    }

    /// One store's cursor, its current row, and how many rows before it shared its identity.
    private struct Side {
        let cursor: DiffRows
        var row: DiffRow?
        var previous: String?
        var repeats = 0

        init(cursor: DiffRows) {
            self.cursor = cursor
        }

        mutating func advance() throws {
            row = try cursor.next()
            guard let row else { return }
            if let previous, DiffMerge.order(previous, row.identity) == 0 {
                repeats += 1
            } else {
                repeats = 0
            }
            previous = row.identity
        }

        /// The identity as printed: with a `'` per earlier object sharing it.
        func name(_ row: DiffRow) -> String { row.identity + String(repeating: "'", count: repeats) }
    }
}
