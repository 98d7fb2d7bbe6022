// seedkit-migration-probe: runs a migration in a process of its own so tests can kill it (SIGKILL)
// at a named stop point (Tests/StoreMigrationTests/Kill/MigrationKillTests.swift).
//
//   seedkit-migration-probe STORE MODEL [--to VERSION] [--mapping PATH]... [--batch-size N] [--pause POINT]
//
// MODEL is a versioned model (an .xcdatamodeld, a versions file); --mapping adds a mapping
// model. With --pause POINT (`prepared`, `batch:PASS:N`, `built`, `renamed`), the probe stops on
// the migration's thread at that point, prints `paused POINT` on standard output and sleeps
// until it is killed. Without it, it prints `migrated FROM → TO` and exits 0. Exit 1 with the
// error on standard error.
import Foundation
import ModelFiles
import StoreMigration

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: seedkit-migration-probe STORE MODEL [options]\n".utf8))
    exit(2)
}
var options = MigrationOptions()
var mappings: [MappingModel] = []
var pause: String?
var index = 2
while index < arguments.count {
    let value = index + 1 < arguments.count ? arguments[index + 1] : ""
    switch arguments[index] {
    case "--to": options.target = value
    case "--batch-size": options.batchSize = Int(value) ?? options.batchSize
    case "--pause": pause = value
    case "--mapping": mappings.append(try MappingModelReader.readMappingModel(at: URL(fileURLWithPath: value)))
    default:
        FileHandle.standardError.write(Data("unknown option \(arguments[index])\n".utf8))
        exit(2)
    }
    index += 2
}
if let pause {
    options.onStopPoint = { point in
        guard point.name == pause else { return }
        FileHandle.standardOutput.write(Data("paused \(point.name)\n".utf8))
        while true { sleep(60) }
    }
}
do {
    let source = MigrationSource(versions: try ModelVersionSet.load(from: arguments[1]), mappings: mappings)
    let report = try await StoreMigrator.migrate(store: arguments[0], source: source, options: options)
    print("migrated \(report.from) → \(report.to)")
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
