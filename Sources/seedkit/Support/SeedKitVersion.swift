// The tool's version string, printed by `seedkit --version` and written into built stores.
enum SeedKitVersion {
    /// The version of this build of `seedkit`.
    static let current = "0.1.0"
}
