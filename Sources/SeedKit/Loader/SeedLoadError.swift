// Why a first launch could not bring the seed in; the user's store is then as it was.

/// A first launch that could not finish; the user's store was not changed (a merge that failed
/// half-way was undone).
///
/// ```swift
/// do { try await loader.prepare() }
/// catch let error as SeedLoadError where error.kind == .incompatibleModel { print(error) }
/// ```
public struct SeedLoadError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// The seed's model differs from the app's model or from the user store's model.
        case incompatibleModel
        /// The user has a store, but neither the seed nor the options give a seed version to
        /// compare it with.
        case missingSeedVersion
        /// A file could not be read, written, synced or renamed.
        case fileSystem
    }

    /// What went wrong.
    public var kind: Kind
    /// One line naming the file and the reason.
    public var description: String

    /// An error of `kind` described by `description`.
    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
