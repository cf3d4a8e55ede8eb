import Foundation
import SyncLab
import SyncLabScenario
import SyncLabReports

// synclab: the command line. The only module allowed to read the wall clock (for bench).
private let usage = """
usage: synclab <command> [options]

commands:
  run FILE|DIR…       run scenarios and write reports (see `synclab run --help`)
  validate FILE|DIR…  check scenario files
  bench               measure the simulator's speed (see `synclab bench --help`)
  report FILE         regenerate reports from a saved result.json or trace.jsonl
  fuzz                run generated scenarios and shrink what they find (see `synclab fuzz --help`)
  shrink FILE         shrink a failing scenario to a minimal one (see `synclab shrink --help`)

Exit status: 0 success, 1 an expectation failed, 2 bad input or usage.
"""

/// The command line's entry point, callable from a team's own executable.
public enum SyncLabCommandLine {
    /// Runs one `synclab` command line and returns its exit status (0, 1 or 2).
    /// - Parameter arguments: the arguments after the program name.
    public static func main(_ arguments: [String]) -> Int32 {
        main(arguments, apps: .builtIn)
    }

    /// Runs one `synclab` command line with a team's own apps: scenario files may name every
    /// app in `apps` (`"apps": {"records": "TodoApp"}`), besides the built-ins.
    ///
    /// A team's executable is a few lines:
    /// ```swift
    /// import SyncLab
    /// import SyncLabCLI
    /// exit(SyncLabCommandLine.main(Array(CommandLine.arguments.dropFirst()), apps: myApps))
    /// ```
    /// The replay line of a run that uses the team's apps starts with `apps.program`, or when
    /// that is nil with `swift run NAME`, NAME this executable's file name (`argv[0]`'s last
    /// component): `synclab` would refuse the team's app names.
    /// - Returns: the exit status (0, 1 or 2).
    public static func main(_ arguments: [String], apps: AppRegistry) -> Int32 {
        let status: ExitStatus
        switch arguments.first {
        case "run":
            status = RunCommand.main(Array(arguments.dropFirst()), apps: apps.names, factories: apps.factories,
                                     teamProgram: apps.program ?? programRunning(executable: CommandLine.arguments.first))
        case "validate": status = ValidateCommand.main(Array(arguments.dropFirst()), apps: apps.names)
        case "bench": status = BenchCommand.main(Array(arguments.dropFirst()))
        case "report": status = ReportCommand.main(Array(arguments.dropFirst()))
        case "fuzz": status = FuzzCommand.main(Array(arguments.dropFirst()))
        case "shrink": status = ShrinkCommand.main(Array(arguments.dropFirst()), apps: apps.names, factories: apps.factories)
        case "--help", "-h", "help": Console.out(usage); status = .success
        case nil: Console.error(usage); status = .badInput
        case let other?:
            Console.error("synclab: unknown command \(other)\n\(usage)"); status = .badInput
        }
        return status.rawValue
    }

    /// `swift run NAME`, NAME the last path component of `executable` (the process's `argv[0]`):
    /// how a team's executable is started from its package's root. `synclab`'s when unknown.
    package static func programRunning(executable: String?) -> String {
        guard let executable, let name = executable.split(separator: "/").last, !name.isEmpty else { return ReplayCommand.builtInProgram }
        return "swift run " + ReplayCommand.shellQuoted(String(name))
    }
}
