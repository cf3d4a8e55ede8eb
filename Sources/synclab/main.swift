import Foundation

// synclab: the command line. The only module allowed to read the wall clock (for bench).
let usage = """
usage: synclab <command> [options]

commands:
  run FILE|DIR…       run scenarios and write reports (see `synclab run --help`)
  validate FILE|DIR…  check scenario files
  bench               measure the simulator's speed (see `synclab bench --help`)
  report FILE         regenerate reports from a saved result.json or trace.jsonl

Exit status: 0 success, 1 an expectation failed, 2 bad input or usage.
"""

let arguments = Array(CommandLine.arguments.dropFirst())
let status: ExitStatus
switch arguments.first {
case "run": status = RunCommand.main(Array(arguments.dropFirst()))
case "validate": status = ValidateCommand.main(Array(arguments.dropFirst()))
case "bench": status = BenchCommand.main(Array(arguments.dropFirst()))
case "report": status = ReportCommand.main(Array(arguments.dropFirst()))
case "--help", "-h", "help": Console.out(usage); status = .success
case nil: Console.error(usage); status = .badInput
case let other?:
    Console.error("synclab: unknown command \(other)\n\(usage)"); status = .badInput
}
exit(status.rawValue)
