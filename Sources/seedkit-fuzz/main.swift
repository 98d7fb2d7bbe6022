// seedkit-fuzz: robustness and performance harness for the RecordReaders module.
//
//   seedkit-fuzz fuzz [--format F|all] [--iterations N] [--seconds S] [--seed X] [--out DIR]
//                     [--max-memory MiB] [--max-rss MiB] [--rss-every N]
//   seedkit-fuzz replay FILE --format F
//   seedkit-fuzz bench FILE [--format F] [--records PATH] [--runs N]
//   seedkit-fuzz generate --format F --items N -o FILE
//   seedkit-fuzz memory [--format F|all] [--items N] [--min-bytes SIZE] [--dir DIR] [--max-rss MB]
//   seedkit-fuzz plist [--iterations N] [--seconds S] [--seed X] [--out DIR] [--max-memory MiB] [--max-rss MiB]
//
// See docs/Fuzzing.md. Exit status: 0 when nothing was found, 1 on a finding or failure,
// 2 on a usage error.

#if canImport(Glibc)
    import Glibc
#endif

let arguments = Arguments(Array(CommandLine.arguments.dropFirst()))
let status: Int32
switch arguments.command {
case "fuzz": status = FuzzCommand.run(arguments)
case "replay": status = FuzzCommand.replay(arguments)
case "bench": status = BenchCommand.run(arguments)
case "generate": status = GenerateCommand.run(arguments)
case "memory": status = MemoryCommand.run(arguments)
case "plist":
    status = PropertyListFuzz.run(
        .init(
            iterations: arguments.int("iterations", 20000), seconds: arguments.int("seconds", 0),
            seed: UInt64(arguments.int("seed", 1)), directory: arguments.string("out") ?? ".",
            maxMemory: arguments.int("max-memory", FuzzCommand.defaultMaxMemory),
            maxResident: arguments.int("max-rss", FuzzCommand.defaultMaxResident),
            residentCheckInterval: arguments.int("rss-every", 1000)))
default:
    print(
        """
        usage: seedkit-fuzz fuzz [--format csv|tsv|json|ndjson|xml|all] [--iterations N] [--seconds S] [--seed X] [--out DIR]
                                 [--max-memory MiB] [--max-rss MiB] [--rss-every N]
               seedkit-fuzz replay FILE --format F
               seedkit-fuzz bench FILE [--format F] [--records PATH] [--runs N]
               seedkit-fuzz generate --format F --items N -o FILE
               seedkit-fuzz memory [--format F|all] [--items N] [--min-bytes SIZE] [--dir DIR] [--max-rss MB]
               seedkit-fuzz plist [--iterations N] [--seconds S] [--seed X] [--out DIR] [--max-memory MiB] [--max-rss MiB]
        """)
    status = arguments.command == "help" ? 0 : 2
}
exit(status)
