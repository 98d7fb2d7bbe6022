// How the commands that read stores (`inspect`, `export`, `diff`, `copy --from`) open them:
// read-only, so that reading changes no file, and with `--verify` checked page by page first.
import ArgumentParser
import GraphStore

/// `--verify`, and the options a command opens the stores it reads with.
struct StoreReadOptions: ParsableArguments {
    @Flag(
        help:
            "Check every page of each store read before reading it (SQLite's quick_check; takes time in proportion to the store's size)."
    )
    var verify = false

    /// Read-only, checked when `--verify` is given.
    var storeOptions: StoreOptions {
        var options = StoreOptions()
        options.readOnly = true
        options.verifyIntegrity = verify
        return options
    }
}
