// `--layout seedkit|core-data [--template EMPTY.sqlite]`: the layout of a store a command creates
// (`build`, `import` into a new store, `copy` into a new target). An existing store keeps its
// layout; --template (an empty store the app made) implies core-data.
import ArgumentParser
import Foundation
import GraphStore

/// The layout of a new store.
struct NewStoreLayoutOptions: ParsableArguments {
    @Option(
        help:
            "The layout of a new store: seedkit (default) or core-data (a store a Core Data app opens without migration)."
    )
    var layout: StoreLayoutKind?

    @Option(
        help: "An empty Core Data store the app made for the model: a new store starts as a copy of it (core-data).")
    var template: String?

    func validate() throws {
        if template != nil && layout == .seedKit {
            throw ValidationError("--template makes a core-data store: drop --layout seedkit")
        }
    }

    /// Whether either option was given.
    var isGiven: Bool { layout != nil || template != nil }

    /// The layout asked for: core-data with a template.
    var chosen: StoreLayoutKind? { template == nil ? layout : .coreData }

    /// The template as an absolute path (relative ones start from the current directory).
    var absoluteTemplate: String? {
        template.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
    }

    /// Store options that create a store in the chosen layout.
    var storeOptions: StoreOptions {
        var options = StoreOptions()
        options.layout = chosen
        options.template = absoluteTemplate
        return options
    }
}

extension StoreLayoutKind: ExpressibleByArgument {}
