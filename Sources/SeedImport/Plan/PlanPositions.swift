// The side table that keeps, for every element of a parsed plan file, where its key and its value
// were written, so problems found after parsing (by the validator, or at import time) still name
// `plan.yaml:line:column`.
// Invariant: key paths are the ones `PlanError.keyPath` uses: `.`-joined keys from the root and
// `[n]` for the n-th (0-based) element of a list, e.g. `sources[1].attributes.price.field`.

/// Where each element of a plan file was written, by key path.
///
/// ```swift
/// let file = try PlanFile.load(from: "plan.yaml")
/// file.positions.value(at: "sources[0].entity")     // 9:13, where `Item` is
/// file.positions.key(at: "sources[0].entity")       // 9:5, where `entity:` is
/// file.positions.nearest(to: "sources[0].attributes.price.field")  // the attribute's own position
/// ```
public struct PlanPositions: Sendable, Hashable {
    /// The plan file, as the caller named it.
    public var file: String?
    private var keys: [String: PlanPosition] = [:]
    private var values: [String: PlanPosition] = [:]

    /// An empty table for `file`.
    public init(file: String? = nil) {
        self.file = file
    }

    /// Where the value at `keyPath` starts.
    public func value(at keyPath: String) -> PlanPosition? {
        values[keyPath]
    }

    /// Where the key naming the element at `keyPath` is (nil for list elements and the root).
    public func key(at keyPath: String) -> PlanPosition? {
        keys[keyPath]
    }

    /// Whether the file gave the element at `keyPath`.
    public func contains(_ keyPath: String) -> Bool {
        values[keyPath] != nil || keys[keyPath] != nil
    }

    /// The value's position at `keyPath` (or its key's), else that of the closest enclosing element
    /// the file gave: a default or a convention is reported where its owner was written.
    public func nearest(to keyPath: String, preferKey: Bool = false) -> PlanPosition? {
        var path = Substring(keyPath)
        while true {
            let key = String(path)
            let found = preferKey ? keys[key] ?? values[key] : values[key] ?? keys[key]
            if let found { return found }
            guard let cut = path.lastIndex(where: { $0 == "." || $0 == "[" }) else {
                return path.isEmpty ? nil : values[""]
            }
            path = path[..<cut]
        }
    }

    /// Records the positions of the element at `keyPath`.
    mutating func record(_ keyPath: String, key: PlanPosition?, value: PlanPosition?) {
        if let key { keys[keyPath] = key }
        if let value { values[keyPath] = value }
    }
}

/// Building key paths.
enum PlanKeyPath {
    /// `parent.key`, or `key` at the root.
    static func child(_ parent: String, _ key: String) -> String {
        parent.isEmpty ? key : parent + "." + key
    }

    /// `parent[index]`.
    static func element(_ parent: String, _ index: Int) -> String {
        parent + "[\(index)]"
    }
}
