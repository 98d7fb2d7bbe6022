// The store layouts a user can choose for a new store: SeedKit's own (docs/StoreFormat.md) and
// Core Data's (docs/CoreDataStores.md), by the names plans and the CLI use.

/// A store layout SeedKit reads and writes.
///
/// ```swift
/// var options = StoreOptions()
/// options.layout = .coreData          // a store a Core Data app opens without migration
/// ```
public enum StoreLayoutKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// SeedKit's own layout: readable tables, the model embedded (docs/StoreFormat.md).
    case seedKit = "seedkit"
    /// Core Data's SQLite layout, for an Xcode model (docs/CoreDataStores.md).
    case coreData = "core-data"

    /// The layout's rules.
    package var rules: any StoreLayoutRules {
        switch self {
        case .seedKit: SeedKitLayout()
        case .coreData: CoreDataLayout()
        }
    }
}
