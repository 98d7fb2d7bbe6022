// The seed loader's logger. It carries what is neither an error nor part of an outcome's report:
// the first-launch decisions worth a debug line. Label and levels: docs/LibraryAPI.md.
import Logging

/// The logger of first-launch loads, label `seedkit.loader`.
let loaderLog = Logger(label: "seedkit.loader")
