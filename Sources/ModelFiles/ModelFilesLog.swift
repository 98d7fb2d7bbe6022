// The ModelFiles module's logger. It carries what is neither an error nor part of the model: parts of
// a model file that are read past on purpose (debug). Label and levels: docs/LibraryAPI.md.
import Logging

/// The logger of model-file reading, label `seedkit.model`.
let modelLog = Logger(label: "seedkit.model")
