// swift-tools-version: 6.1
// SeedKit: bulk data into a Core Data–style object store, and object graphs between stores.
// Module layout and dependency direction: see docs/Architecture.md.
import PackageDescription

let package = Package(
    name: "SeedKit",
    products: [
        .library(name: "GraphStore", targets: ["GraphStore"]),
        .library(name: "ModelFiles", targets: ["ModelFiles"]),
        .library(name: "RecordReaders", targets: ["RecordReaders"]),
        .library(name: "SeedImport", targets: ["SeedImport"]),
        .library(name: "DeepCopy", targets: ["DeepCopy"]),
        .library(name: "StoreMigration", targets: ["StoreMigration"]),
        .library(name: "SeedKit", targets: ["SeedKit"]),
        .library(name: "PropertyLists", targets: ["PropertyLists"]),
        .library(name: "SeedKitCodegen", targets: ["SeedKitCodegen"]),
        .executable(name: "seedkit", targets: ["seedkit"]),
        .plugin(name: "SeedKitPlugin", targets: ["SeedKitPlugin"]),
        .plugin(name: "SeedKitCodegenPlugin", targets: ["SeedKitCodegenPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // `swift package generate-documentation`: the DocC catalogs (docs/APIDocumentation.md).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // System libraries, found through pkg-config.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),

        // The object graph: model, SQLite store, contexts, objects, fetches. Property lists for the
        // metadata of Core Data–layout stores.
        .target(
            name: "GraphStore",
            dependencies: ["CSQLite", "PropertyLists", .product(name: "Crypto", package: "swift-crypto")]
        ),

        // Binary and XML property lists and NSKeyedArchiver archives, for untrusted input.
        .target(
            name: "PropertyLists",
            dependencies: ["CLibXML2"]
        ),

        // Model files: Xcode models (.xcdatamodeld, .xcdatamodel, contents) and mapping models
        // (.xcmappingmodel), and SeedKit's YAML/JSON model files.
        .target(
            name: "ModelFiles",
            dependencies: [
                "GraphStore",
                "PropertyLists",
                "CLibXML2",
                .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // Streaming CSV, JSON/NDJSON and XML record readers (plain or gzip input).
        .target(
            name: "RecordReaders",
            dependencies: ["CLibXML2", "CZlib"]
        ),

        // Plan-driven import: plans, coercion, key matching, batched saves.
        .target(
            name: "SeedImport",
            dependencies: [
                "GraphStore",
                "ModelFiles",
                "RecordReaders",
                .product(name: "Yams", package: "Yams"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // Store-to-store copies of object graphs, merged by unique keys.
        .target(
            name: "DeepCopy",
            dependencies: ["GraphStore", .product(name: "Logging", package: "swift-log")]
        ),

        // Model migration: a store of an older model version brought to a newer one, by inferred
        // rules and Xcode mapping models, set-based and crash-safe (docs/Migration.md).
        .target(
            name: "StoreMigration",
            dependencies: ["GraphStore", "ModelFiles", .product(name: "Logging", package: "swift-log")]
        ),

        // The three uses: seed builds (SeedBuilder), first launch (SeedLoader).
        .target(
            name: "SeedKit",
            dependencies: [
                "GraphStore", "ModelFiles", "SeedImport", "DeepCopy", "StoreMigration",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // Text from a model: typed Swift code for its entities, Mermaid and Graphviz diagrams.
        .target(
            name: "SeedKitCodegen",
            dependencies: ["GraphStore"]
        ),

        // Drafts a plan (and a model) from the first records of sample files (`seedkit plan infer`).
        .target(
            name: "PlanInference",
            dependencies: ["GraphStore", "ModelFiles", "RecordReaders", "SeedImport"]
        ),

        // The command-line tool.
        .executableTarget(
            name: "seedkit",
            dependencies: [
                "GraphStore",
                "ModelFiles",
                "RecordReaders",
                "SeedImport",
                "SeedKit",
                "DeepCopy",
                "StoreMigration",
                "SeedKitCodegen",
                "PlanInference",
                "PropertyLists",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // Builds an app's seed store at build time from its plan (docs/FirstLaunch.md).
        .plugin(
            name: "SeedKitPlugin",
            capability: .buildTool(),
            dependencies: ["seedkit"]
        ),

        // Generates typed Swift code at build time from the models in a target's folder
        // (docs/CodeGeneration.md).
        .plugin(
            name: "SeedKitCodegenPlugin",
            capability: .buildTool(),
            dependencies: ["seedkit"]
        ),

        // A seeded mutation fuzzer for the record readers and for reading stores, and the benchmark catalog generator
        // (see docs/Fuzzing.md).
        .executableTarget(
            name: "seedkit-fuzz",
            dependencies: [
                "RecordReaders", "PropertyLists", "GraphStore", "DeepCopy", "ModelFiles",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Benchmarks (docs/Performance.md).
        .executableTarget(
            name: "seedkit-bench",
            dependencies: ["GraphStore", "SeedKit"],
            path: "Benchmarks/seedkit-bench"
        ),

        // A child process for the first-launch kill tests: runs SeedLoader.prepare() and stops
        // at a named point so the test can SIGKILL it (Tests/SeedKitTests/SeedLoaderKillTests.swift).
        .executableTarget(
            name: "seedkit-loader-probe",
            dependencies: ["SeedKit"],
            path: "Tests/Probes/SeedLoaderProbe"
        ),

        // A child process for the migration kill tests: runs a migration and stops at a named point
        // so the test can SIGKILL it (Tests/StoreMigrationTests/Kill/MigrationKillTests.swift).
        .executableTarget(
            name: "seedkit-migration-probe",
            dependencies: ["StoreMigration", "GraphStore", "ModelFiles"],
            path: "Tests/Probes/MigrationProbe"
        ),

        // What several test targets share: temporary folders, the repository's files, child processes.
        .target(name: "TestSupport", dependencies: ["GraphStore"], path: "Tests/TestSupport"),
        .testTarget(name: "GraphStoreTests", dependencies: ["GraphStore", "TestSupport"]),
        .testTarget(
            name: "StoreMigrationTests",
            dependencies: [
                "StoreMigration", "GraphStore", "ModelFiles", "PropertyLists", "DeepCopy", "seedkit-migration-probe", "TestSupport",
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "ModelFilesTests",
            dependencies: ["ModelFiles", "PropertyLists", "TestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "RecordReadersTests",
            dependencies: ["RecordReaders"],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "PropertyListsTests", dependencies: ["PropertyLists", "TestSupport"]),
        // Core Data–layout stores written and read: schema, metadata, values, copies, imports.
        .testTarget(
            name: "CoreDataStoresTests",
            dependencies: [
                "GraphStore", "ModelFiles", "PropertyLists", "DeepCopy", "SeedImport", "SeedKit", "TestSupport",
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "SeedKitTests", dependencies: ["SeedKit", "seedkit-loader-probe", "TestSupport"]),
        .testTarget(name: "DeepCopyTests", dependencies: ["DeepCopy", "SeedImport", "ModelFiles", "TestSupport"]),
        .testTarget(
            name: "SeedKitCLITests",
            dependencies: [
                "seedkit", "seedkit-fuzz", "GraphStore", "ModelFiles", "SeedImport", "DeepCopy", "StoreMigration",
                "TestSupport",
            ]
        ),
        .testTarget(
            name: "PlanInferenceTests",
            dependencies: ["PlanInference", "SeedImport", "GraphStore", "ModelFiles", "TestSupport"]),
        .testTarget(
            name: "SeedKitCodegenTests", dependencies: ["SeedKitCodegen", "GraphStore", "ModelFiles", "TestSupport"]),
        // The code `seedkit generate` writes for the catalog and Grocery Dude models, compiled and
        // used (one target per model: both have an `Item`); SeedKitCodegenTests checks that
        // generating again gives the same bytes.
        .testTarget(name: "GeneratedCatalogTests", dependencies: ["GraphStore", "ModelFiles", "TestSupport"]),
        .testTarget(name: "GeneratedGroceryTests", dependencies: ["GraphStore", "ModelFiles", "TestSupport"]),
        // Builds a package that uses both plugins (SeedKitPlugin, SeedKitCodegenPlugin).
        .testTarget(name: "SeedKitPluginTests", dependencies: ["TestSupport"], exclude: ["Fixtures"]),
        .testTarget(
            name: "SeedImportTests",
            dependencies: ["SeedImport", "TestSupport", .product(name: "Yams", package: "Yams")],
            exclude: ["Fixtures"]
        ),
    ]
)
