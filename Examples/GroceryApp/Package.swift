// swift-tools-version: 6.1
// GroceryApp: an example app that ships a seed store built at build time by SeedKitPlugin and
// brings it into the user's store at start-up with SeedLoader (docs/FirstLaunch.md).
//
//   cd Examples/GroceryApp && swift run --scratch-path /tmp/example-build
import PackageDescription

let package = Package(
    name: "GroceryApp",
    dependencies: [
        .package(name: "SeedKit", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "GroceryApp",
            dependencies: [.product(name: "SeedKit", package: "SeedKit")],
            // The seed's plan, model and data are read by the plugin, not compiled or copied.
            exclude: ["Seed"],
            plugins: [.plugin(name: "SeedKitPlugin", package: "SeedKit")]
        )
    ]
)
