// swift-tools-version: 6.1
// SeedKit: bulk data into a Core Data–style object store, and object graphs between stores.
// Module layout and dependency direction: see docs/Architecture.md.
import PackageDescription

let package = Package(
    name: "SeedKit",
    products: [
        .library(name: "GraphStore", targets: ["GraphStore"]),
        .library(name: "RecordReaders", targets: ["RecordReaders"]),
        .library(name: "SeedImport", targets: ["SeedImport"]),
        .library(name: "DeepCopy", targets: ["DeepCopy"]),
        .library(name: "SeedKit", targets: ["SeedKit"]),
        .library(name: "PropertyLists", targets: ["PropertyLists"]),
        .executable(name: "seedkit", targets: ["seedkit"]),
        .plugin(name: "SeedKitPlugin", targets: ["SeedKitPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
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

        // The object graph: model, SQLite store, contexts, objects, fetches.
        .target(
            name: "GraphStore",
            dependencies: [
                "CSQLite",
                "CLibXML2",
                .product(name: "Yams", package: "Yams"),
            ]
        ),

        // Binary and XML property lists and NSKeyedArchiver archives, for untrusted input.
        .target(
            name: "PropertyLists",
            dependencies: ["CLibXML2"]
        ),

        // Xcode mapping models (.xcmappingmodel) and their archived value expressions.
        .target(
            name: "MappingModels",
            dependencies: ["PropertyLists"]
        ),

        // Streaming CSV, JSON/NDJSON and XML record readers.
        .target(
            name: "RecordReaders",
            dependencies: ["CLibXML2"]
        ),

        // Plan-driven import: plans, coercion, key matching, batched saves.
        .target(
            name: "SeedImport",
            dependencies: [
                "GraphStore",
                "RecordReaders",
                .product(name: "Yams", package: "Yams"),
            ]
        ),

        // Store-to-store copies of object graphs, merged by unique keys.
        .target(
            name: "DeepCopy",
            dependencies: ["GraphStore"]
        ),

        // The three uses: seed builds (SeedBuilder), first launch (SeedLoader).
        .target(
            name: "SeedKit",
            dependencies: ["GraphStore", "SeedImport", "DeepCopy"]
        ),

        // The command-line tool.
        .executableTarget(
            name: "seedkit",
            dependencies: [
                "GraphStore",
                "RecordReaders",
                "SeedImport",
                "SeedKit",
                "DeepCopy",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Builds an app's seed store at build time from its plan (docs/FirstLaunch.md).
        .plugin(
            name: "SeedKitPlugin",
            capability: .buildTool(),
            dependencies: ["seedkit"]
        ),

        // A seeded mutation fuzzer for the record readers (see docs/Fuzzing.md).
        .executableTarget(
            name: "seedkit-fuzz",
            dependencies: ["RecordReaders", "PropertyLists"]
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

        .testTarget(
            name: "GraphStoreTests",
            dependencies: ["GraphStore"],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "RecordReadersTests", dependencies: ["RecordReaders"]),
        .testTarget(name: "PropertyListsTests", dependencies: ["PropertyLists"]),
        .testTarget(name: "MappingModelsTests", dependencies: ["MappingModels"], exclude: ["Fixtures"]),
        .testTarget(name: "SeedKitTests", dependencies: ["SeedKit", "seedkit-loader-probe"]),
        .testTarget(name: "DeepCopyTests", dependencies: ["DeepCopy", "SeedImport"]),
        .testTarget(
            name: "SeedKitCLITests",
            dependencies: ["seedkit", "GraphStore"]
        ),
        .testTarget(
            name: "SeedImportTests",
            dependencies: ["SeedImport"],
            exclude: ["Fixtures"]
        ),
    ]
)
