// The import module's logger. It carries what is neither an error nor part of the import report:
// decisions worth a debug line (which write path a run takes). Label and levels: docs/LibraryAPI.md.
import Logging

/// The logger of plan-driven imports, label `seedkit.import`.
let importLog = Logger(label: "seedkit.import")
