import Foundation
import SyncLabKernel
import SyncLabJSON
import SyncLabProtocol
import SyncLabScenario
import SyncLabChecker
import SyncLabHistory
import SyncLabSimulation
import SyncLabRunner
import SyncLab
import SyncLabReports

/// `synclab bench`: how fast the simulator runs a synthetic workload (release build advised).
///
/// N devices on one account make random writes (KVS `kvs.set`, `doc.save`, or `record.save` into
/// one custom zone) at exponentially distributed intervals for a simulated duration. Prints
/// events/s, user operations/s, deliveries/s, the simulated-to-wall time ratio and peak memory,
/// and beside them the kernel's no-op event rate measured in the same process, since a shared
/// machine's speed varies: `ofKernel` is the figure to compare across runs.
enum BenchCommand {
    static let usage = """
    usage: synclab bench [--devices N] [--duration D] [--interval D] [--keys N]
                         [--store kvs|documents|records|mixed] [--workload writes|idle|offline|day]
                         [--seed N] [--trace] [--trace-file PATH] [--check] [--reports DIR]
                         [--format text|json] [--compare BASELINE.json]
           synclab bench --series [--series-svg PATH] [--store S]
           synclab bench --kernel

    Runs a synthetic workload and reports the simulator's speed.
      --devices N     devices on one account (default 1000; 50 for --workload day)
      --duration D    simulated time of the workload (default 2m; 24h for --workload day)
      --interval D    mean time between one device's writes (default 60s; 4m for --workload day)
      --keys N        distinct keys / documents / records written (default 100)
      --store S       kvs (default), documents, records, or mixed (each write picks one)
      --workload W    writes (default); idle (launch only: bytes per idle device); offline
                      (every device in airplane mode: bytes per pending change); day (all three
                      stores, three airplane windows per device; --store mixed implied)
      --seed N        workload and simulation seed (default 1)
      --trace         also record the trace, streamed to --trace-file (default: a temporary
                      file, removed after) so memory does not grow with it; --trace-file
                      alone implies --trace, and a file that cannot be written is exit 2
      --check         also run the checker on the history, and time it alone
      --reports DIR   instead run it as `synclab run` does (trace kept in memory, history
                      judged) and write its reports (trace.jsonl, result.json, timeline.html,
                      report.md) into DIR: reports_s times the writing, total_s everything
      --hosted        every device hosts an app through the public app API (SPEC §9), to
                      measure hosting's cost: with --store kvs an observer that reads the
                      changed keys and writes nothing (against the built-in reader); with
                      --store records a CKSyncEngine delegate with its own local database
                      (against the built-in merge engine)
      --format F      text (default) or json
      --compare F     print each figure's ratio to the same figures in F (a --format json output,
                      or an array of them: the entry with this run's store, workload and devices)
      --series        devices 10, 100, 1,000, 10,000 (each in its own process, about 1,000 writes):
                      a Markdown table on stdout, and with --series-svg a plot of it
      --yardstick-events N  kernel no-op events timed beside the run (default 2000000)
      --kernel        instead: the kernel's no-op event path (10 million events, 1,000 pending)
    """

    static func main(_ arguments: [String]) -> ExitStatus {
        let parsed: Arguments
        do {
            parsed = try Arguments(arguments, valued: ["--devices", "--duration", "--interval", "--keys", "--store", "--seed", "--format",
                                                       "--workload", "--trace-file", "--compare", "--series-svg", "--yardstick-events", "--reports"],
                                   flags: ["--trace", "--check", "--kernel", "--series", "--hosted", "--host-records-policies", "--help"])
        } catch { Console.error("synclab bench: \(error.message)\n\(usage)"); return .badInput }
        if parsed.has("--help") { Console.out(usage); return .success }
        var workload = BenchWorkload()
        workload.kind = parsed.value("--workload") ?? "writes"
        let day = workload.kind == "day"
        workload.store = parsed.value("--store") ?? (day ? "mixed" : "kvs")
        guard let deviceCount = Int(parsed.value("--devices") ?? (day ? "50" : "1000")), deviceCount > 0,
              let duration = Units.duration(parsed.value("--duration") ?? (day ? "24h" : "2m")), duration > .zero,
              let interval = Units.duration(parsed.value("--interval") ?? (day ? "4m" : "60s")), interval > .zero,
              let keyCount = Int(parsed.value("--keys") ?? "100"), keyCount > 0,
              let seed = UInt64(parsed.value("--seed") ?? "1"),
              let yardstick = Int(parsed.value("--yardstick-events") ?? "2000000"), yardstick > 0 else {
            Console.error("synclab bench: bad option value\n\(usage)"); return .badInput
        }
        guard BenchWorkload.stores.contains(workload.store) else { Console.error("synclab bench: --store takes kvs, documents, records or mixed"); return .badInput }
        guard BenchWorkload.kinds.contains(workload.kind) else { Console.error("synclab bench: --workload takes writes, idle, offline or day"); return .badInput }
        let format = parsed.value("--format") ?? "text"
        guard format == "text" || format == "json" else { Console.error("synclab bench: --format takes text or json"); return .badInput }
        workload.devices = deviceCount; workload.duration = duration; workload.interval = interval; workload.keys = keyCount; workload.seed = seed

        if parsed.has("--kernel") { return kernel(format: format, seed: seed) }
        if parsed.has("--series") { return BenchSeries.main(store: workload.store, seed: seed, svgPath: parsed.value("--series-svg")) }
        var baseline: [(String, Double)]?
        if let path = parsed.value("--compare") {
            switch BenchComparison.load(path, store: workload.store, workload: workload.kind, devices: deviceCount) {
            case .success(let figures): baseline = figures
            case .failure(let error): Console.error("synclab bench: \(error.message)"); return .badInput
            }
        }
        let hosted = parsed.has("--hosted")
        guard !hosted || workload.store == "kvs" || workload.store == "records" else {
            Console.error("synclab bench: --hosted measures KVS and records apps only (--store kvs or records)"); return .badInput
        }
        let reports = parsed.value("--reports")
        guard reports == nil || !(parsed.has("--trace") || parsed.has("--check") || hosted) else {
            Console.error("synclab bench: --reports keeps the trace and checks the history itself: no --trace, --check or --hosted with it"); return .badInput
        }
        let figures: [(String, JSON)]
        if let reports {
            do { figures = try measureWithReports(workload, folder: reports, yardstickEvents: yardstick) } catch {
                Console.error("synclab bench: cannot write reports to \(reports): \(ScenarioFiles.reason(error))"); return .badInput
            }
        } else {
            let traceFile = parsed.value("--trace-file")
            figures = measure(workload, trace: parsed.has("--trace") || traceFile != nil, traceFile: traceFile, check: parsed.has("--check"),
                              hosted: hosted, hostRecordsPolicies: parsed.has("--host-records-policies"), yardstickEvents: yardstick)
            if let failure = figures.first(where: { $0.0 == "traceFailure" }), case .string(let reason) = failure.1 {
                // The run's figures are real, but the file asked for is not the trace: bad output path.
                Console.error("synclab bench: --trace-file: \(reason)"); return .badInput
            }
        }
        if format == "json" {
            Console.out(JSON.object(figures).renderedPretty())
        } else {
            printText(figures, workload)
        }
        if let baseline { BenchComparison.print(figures, against: baseline) }
        return .success
    }

    /// Runs the workload once and returns its figures, in a fixed order.
    /// - Parameter hostRecordsPolicies: the records policy runs as its built-in records app
    ///   (`MergeRecordsApp` for the default workload) on the platform instead of in the engine
    ///   (not in the usage: a comparison aid, docs/LIBRARY.md).
    static func measure(_ workload: BenchWorkload, trace: Bool, traceFile: String?, check: Bool, hosted: Bool = false,
                        hostRecordsPolicies: Bool = false, yardstickEvents: Int) -> [(String, JSON)] {
        // The kernel's rate first, in this process: the yardstick for this machine right now.
        let kernelRate = kernelRate(events: yardstickEvents, seed: workload.seed)
        var run = workload.scenario()
        var options = SimulationOptions()
        if hosted {
            // The same run with a team-style observer on every device instead of the built-in reader.
            var apps = AppRegistry.builtIn
            if workload.store == "records" {
                // A CKSyncEngine delegate on every device instead of the built-in merge engine.
                try? apps.register(records: BenchRecordsApp.name, BenchRecordsApp.self) // a fixed, valid name: cannot fail
                for index in run.devices.indices { run.devices[index].apps.records = BenchRecordsApp.name }
            } else {
                try? apps.register(kvs: BenchObserver.name) { BenchObserver() } // a fixed, valid name: cannot fail
                for index in run.devices.indices { run.devices[index].apps.kvs = BenchObserver.name }
            }
            options.apps = apps.factories
        }
        options.hostRecordsPolicies = hostRecordsPolicies
        options.recordTrace = trace
        options.recordHistory = check
        let temporaryTrace = trace && traceFile == nil
        if trace {
            options.traceFile = traceFile ?? (NSTemporaryDirectory() as NSString).appendingPathComponent("synclab-bench-\(ProcessInfo.processInfo.processIdentifier).jsonl")
        }
        defer { if temporaryTrace, let path = options.traceFile { try? FileManager.default.removeItem(atPath: path) } }
        let clock = ContinuousClock()
        let started = clock.now
        var simulator = Simulator(run: run, options: options)
        // Judged inside the timed span, as `synclab run` judges every run.
        var outcome = simulator.execute(judge: check)
        var checkerSeconds = 0.0
        if check {
            // The checker's own time is that of this one check: a second, timing-only pass
            // (before session 9) made the process's CPU time more than the run's, so a
            // `--check` run could not be compared whole with a plain one (issue 13).
            let checkStarted = clock.now
            outcome = ScenarioRunner.checked(outcome)
            checkerSeconds = seconds(clock.now - checkStarted)
        }
        let wallSeconds = seconds(clock.now - started)
        let stats = outcome.statistics
        let simulatedSeconds = Double(outcome.endTime.microseconds) / 1e6
        let rate = Double(stats.events) / max(wallSeconds, 1e-9)
        var figures: [(String, JSON)] = [
            ("store", .string(workload.store)),
            ("workload", .string(workload.kind)),
            ("devices", .int(Int64(workload.devices))),
            ("seed", .uint(workload.seed)),
            ("events", .int(Int64(stats.events))),
            ("operations", .int(Int64(stats.operations))),
            ("messages", .int(Int64(stats.messages))),
            ("deliveries", .int(Int64(stats.deliveries))),
            ("settled", .bool(outcome.settled)),
            ("simulated_s", .double(simulatedSeconds)),
            ("wall_s", .double(wallSeconds)),
            ("eventsPerSecond", .double(rate)),
            ("eventsPerWrite", .double(Double(stats.events) / Double(max(stats.operations, 1)))),
            ("operationsPerSecond", .double(Double(stats.operations) / max(wallSeconds, 1e-9))),
            ("deliveriesPerSecond", .double(Double(stats.deliveries) / max(wallSeconds, 1e-9))),
            ("simulatedToWallRatio", .double(simulatedSeconds / max(wallSeconds, 1e-9))),
            ("kernelEventsPerSecond", .double(kernelRate)),
            ("ofKernel", .double(rate / max(kernelRate, 1e-9))),
            ("peakMemoryBytes", .int(ProcessMemory.peakResidentBytes())),
            ("bytesPerDevice", .double(Double(ProcessMemory.peakResidentBytes()) / Double(workload.devices))),
            ("cores", .int(Int64(ProcessInfo.processInfo.activeProcessorCount))),
        ]
        if let file = outcome.traceFile {
            figures.append(("traceBytes", .int(file.bytes)))
            if let failure = file.failure { figures.append(("traceFailure", .string(failure))) }
        }
        if check {
            figures.append(("historyFacts", .int(Int64(outcome.history.facts.count))))
            figures.append(("checker_s", .double(checkerSeconds)))
            figures.append(("factsPerSecond", .double(Double(outcome.history.facts.count) / max(checkerSeconds, 1e-9))))
            figures.append(("anomalies", .int(Int64(outcome.report.anomalies.count))))
        }
        return figures
    }

    /// Runs the workload as `synclab run` runs a scenario (trace in memory, history judged,
    /// expectations evaluated) and writes its four report files, timing the writing apart.
    static func measureWithReports(_ workload: BenchWorkload, folder: String, yardstickEvents: Int) throws -> [(String, JSON)] {
        let kernelRate = kernelRate(events: yardstickEvents, seed: workload.seed)
        let clock = ContinuousClock()
        let started = clock.now
        let judged = ScenarioRunner.run(workload.scenario())
        let runSeconds = seconds(clock.now - started)
        let reportsStarted = clock.now
        try ReportWriter.write(judged, file: "synclab bench --workload \(workload.kind)", to: folder)
        let reportSeconds = seconds(clock.now - reportsStarted)
        let totalSeconds = seconds(clock.now - started)
        let stats = judged.outcome.statistics
        let rate = Double(stats.events) / max(runSeconds, 1e-9)
        return [
            ("store", .string(workload.store)),
            ("workload", .string(workload.kind)),
            ("devices", .int(Int64(workload.devices))),
            ("seed", .uint(workload.seed)),
            ("events", .int(Int64(stats.events))),
            ("operations", .int(Int64(stats.operations))),
            ("messages", .int(Int64(stats.messages))),
            ("deliveries", .int(Int64(stats.deliveries))),
            ("settled", .bool(judged.outcome.settled)),
            ("simulated_s", .double(Double(judged.outcome.endTime.microseconds) / 1e6)),
            ("wall_s", .double(runSeconds)),
            ("eventsPerSecond", .double(rate)),
            ("eventsPerWrite", .double(Double(stats.events) / Double(max(stats.operations, 1)))),
            ("operationsPerSecond", .double(Double(stats.operations) / max(runSeconds, 1e-9))),
            ("deliveriesPerSecond", .double(Double(stats.deliveries) / max(runSeconds, 1e-9))),
            ("simulatedToWallRatio", .double(Double(judged.outcome.endTime.microseconds) / 1e6 / max(runSeconds, 1e-9))),
            ("kernelEventsPerSecond", .double(kernelRate)),
            ("ofKernel", .double(rate / max(kernelRate, 1e-9))),
            ("traceBytes", .int(Int64(judged.outcome.trace.count))),
            ("historyFacts", .int(Int64(judged.outcome.history.facts.count))),
            ("anomalies", .int(Int64(judged.outcome.report.anomalies.count))),
            ("reports_s", .double(reportSeconds)),
            ("total_s", .double(totalSeconds)),
            ("peakMemoryBytes", .int(ProcessMemory.peakResidentBytes())),
            ("bytesPerDevice", .double(Double(ProcessMemory.peakResidentBytes()) / Double(workload.devices))),
            ("cores", .int(Int64(ProcessInfo.processInfo.activeProcessorCount))),
        ]
    }

    static func printText(_ figures: [(String, JSON)], _ workload: BenchWorkload) {
        func number(_ key: String) -> Double {
            switch figures.first(where: { $0.0 == key })?.1 {
            case .int(let value)?: return Double(value)
            case .double(let value)?: return value
            default: return 0
            }
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        Console.out("synclab bench: \(workload.store) \(workload.kind), \(workload.devices) devices, seed \(workload.seed), \(cores) cores")
        Console.out(String(format: "  events          %12.0f  %12.0f /s  (%.3f of the kernel's %.0f /s)", number("events"), number("eventsPerSecond"), number("ofKernel"), number("kernelEventsPerSecond")))
        Console.out(String(format: "  user operations %12.0f  %12.0f /s  (%.0f events per write)", number("operations"), number("operationsPerSecond"), number("eventsPerWrite")))
        Console.out(String(format: "  deliveries      %12.0f  %12.0f /s", number("deliveries"), number("deliveriesPerSecond")))
        Console.out(String(format: "  simulated %.1f s in %.3f s wall: %.0fx real time%@", number("simulated_s"), number("wall_s"), number("simulatedToWallRatio"),
                           figures.contains { $0.0 == "settled" && $0.1 == .bool(false) } ? " (did not settle)" : ""))
        Console.out(String(format: "  peak memory %.1f MB (%.0f bytes per device)", number("peakMemoryBytes") / 1_048_576, number("bytesPerDevice")))
        if figures.contains(where: { $0.0 == "reports_s" }) {
            Console.out(String(format: "  reports written in %.3f s (%.3f s in all; trace %.1f MB, %.0f history facts, %.0f anomalies)", number("reports_s"),
                               number("total_s"), number("traceBytes") / 1_048_576, number("historyFacts"), number("anomalies")))
        } else if figures.contains(where: { $0.0 == "traceBytes" }) {
            Console.out(String(format: "  trace %.1f MB streamed", number("traceBytes") / 1_048_576))
        }
        if figures.contains(where: { $0.0 == "checker_s" }) {
            Console.out(String(format: "  checker %.3f s alone: %.0f history facts, %.0f facts/s, %.0f anomalies", number("checker_s"), number("historyFacts"), number("factsPerSecond"), number("anomalies")))
        }
    }

    /// The kernel's no-op event rate now (2 million events by default, under a second in a
    /// release build).
    static func kernelRate(events: Int, seed: UInt64) -> Double {
        let clock = ContinuousClock()
        let started = clock.now
        _ = KernelBenchmark.run(events: events, pending: 1_000, seed: seed)
        return Double(events) / max(seconds(clock.now - started), 1e-9)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// The no-op event path: heap plus dispatch, nothing else.
    static func kernel(format: String, seed: UInt64) -> ExitStatus {
        let events = 10_000_000, pending = 1_000
        let clock = ContinuousClock()
        let started = clock.now
        let checksum = KernelBenchmark.run(events: events, pending: pending, seed: seed)
        let wallSeconds = seconds(clock.now - started)
        let rate = Double(events) / max(wallSeconds, 1e-9)
        if format == "json" {
            Console.out(JSON.object([("kernelEvents", .int(Int64(events))), ("pending", .int(Int64(pending))), ("wall_s", .double(wallSeconds)),
                                     ("eventsPerSecond", .double(rate)), ("checksum", .int(checksum)),
                                     ("cores", .int(Int64(ProcessInfo.processInfo.activeProcessorCount)))]).renderedPretty())
        } else {
            Console.out(String(format: "synclab bench --kernel: %d no-op events, %d pending, %.3f s wall: %.0f events/s (checksum %lld)", events, pending, wallSeconds, rate, checksum))
        }
        return .success
    }
}

/// `bench --hosted`'s app: an observer that reads every changed key, as a real one would, and
/// writes nothing, so the run does the same work as with the built-in reader plus hosting.
struct BenchObserver: KeyValueStoreApp {
    static let name = "benchObserver"
    var reads = 0

    mutating func storeDidChangeExternally(_ change: KeyValueStoreChange, store: KeyValueStore) {
        for key in change.changedKeys where store.object(forKey: key) != nil { reads += 1 }
    }
}
