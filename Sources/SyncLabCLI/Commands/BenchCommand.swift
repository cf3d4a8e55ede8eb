import Foundation
import SyncLabKernel
import SyncLabJSON
import SyncLabProtocol
import SyncLabScenario
import SyncLabSimulation
import SyncLab

/// `synclab bench`: how fast the simulator runs a synthetic workload (release build advised).
///
/// N devices on one account make random writes (KVS `kvs.set`, or `record.save` into one custom
/// zone) at exponentially distributed intervals for a simulated duration. Prints events/s, user
/// operations/s, deliveries/s, the simulated-to-wall time ratio and peak memory. The workload is
/// built from the seed, so two runs with one seed do the same work.
enum BenchCommand {
    static let usage = """
    usage: synclab bench [--devices N] [--duration D] [--interval D] [--keys N] [--store kvs|records]
                         [--seed N] [--trace] [--check] [--format text|json]

    Runs a synthetic workload and reports the simulator's speed.
      --devices N     devices on one account (default 1000)
      --duration D    simulated time of the workload (default 2m)
      --interval D    mean time between one device's writes (default 60s)
      --keys N        distinct keys / records written (default 100)
      --store S       kvs (default) or records
      --seed N        workload and simulation seed (default 1)
      --trace         also record the trace (off by default: bench measures the simulator)
      --check         also run the checker on the history (off by default)
      --hosted        every device hosts a KVS app through the public app API (SPEC §9): an
                      observer that reads the changed keys and writes nothing, to measure
                      hosting's cost against the built-in reader (kvs only)
      --format F      text (default) or json
      --kernel        instead: the kernel's no-op event path (10 million events, 1,000 pending)
    """

    static func main(_ arguments: [String]) -> ExitStatus {
        let parsed: Arguments
        do {
            parsed = try Arguments(arguments, valued: ["--devices", "--duration", "--interval", "--keys", "--store", "--seed", "--format"],
                                   flags: ["--trace", "--check", "--kernel", "--hosted", "--help"])
        } catch { Console.error("synclab bench: \(error.message)\n\(usage)"); return .badInput }
        if parsed.has("--help") { Console.out(usage); return .success }
        guard let deviceCount = Int(parsed.value("--devices") ?? "1000"), deviceCount > 0,
              let duration = Units.duration(parsed.value("--duration") ?? "2m"), duration > .zero,
              let interval = Units.duration(parsed.value("--interval") ?? "60s"), interval > .zero,
              let keyCount = Int(parsed.value("--keys") ?? "100"), keyCount > 0,
              let seed = UInt64(parsed.value("--seed") ?? "1") else {
            Console.error("synclab bench: bad option value\n\(usage)"); return .badInput
        }
        let store = parsed.value("--store") ?? "kvs"
        guard store == "kvs" || store == "records" else { Console.error("synclab bench: --store takes kvs or records"); return .badInput }
        let format = parsed.value("--format") ?? "text"
        guard format == "text" || format == "json" else { Console.error("synclab bench: --format takes text or json"); return .badInput }

        if parsed.has("--kernel") { return kernel(format: format, seed: seed) }
        var run = workload(devices: deviceCount, duration: duration, interval: interval, keys: keyCount, records: store == "records", seed: seed)
        var options = SimulationOptions()
        if parsed.has("--hosted") {
            guard store == "kvs" else { Console.error("synclab bench: --hosted measures KVS apps only (--store kvs)"); return .badInput }
            var apps = AppRegistry.builtIn
            do { try apps.register(kvs: BenchObserver.name) { BenchObserver() } } catch { Console.error("synclab bench: \(error)"); return .badInput }
            for index in run.devices.indices { run.devices[index].apps.kvs = BenchObserver.name }
            options.apps = apps.factories
        }
        options.recordTrace = parsed.has("--trace")
        options.recordHistory = parsed.has("--check")
        let clock = ContinuousClock()
        let started = clock.now
        var simulator = Simulator(run: run, options: options)
        let outcome = simulator.execute(judge: parsed.has("--check"))
        let elapsed = clock.now - started
        let wallSeconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let stats = outcome.statistics
        let simulatedSeconds = Double(outcome.endTime.microseconds) / 1e6
        let figures: [(String, JSON)] = [
            ("store", .string(store)),
            ("devices", .int(Int64(deviceCount))),
            ("seed", .uint(seed)),
            ("events", .int(Int64(stats.events))),
            ("operations", .int(Int64(stats.operations))),
            ("messages", .int(Int64(stats.messages))),
            ("deliveries", .int(Int64(stats.deliveries))),
            ("simulated_s", .double(simulatedSeconds)),
            ("wall_s", .double(wallSeconds)),
            ("eventsPerSecond", .double(Double(stats.events) / max(wallSeconds, 1e-9))),
            ("operationsPerSecond", .double(Double(stats.operations) / max(wallSeconds, 1e-9))),
            ("deliveriesPerSecond", .double(Double(stats.deliveries) / max(wallSeconds, 1e-9))),
            ("simulatedToWallRatio", .double(simulatedSeconds / max(wallSeconds, 1e-9))),
            ("peakMemoryBytes", .int(ProcessMemory.peakResidentBytes())),
            ("cores", .int(Int64(ProcessInfo.processInfo.activeProcessorCount))),
        ]
        if format == "json" {
            Console.out(JSON.object(figures).renderedPretty())
        } else {
            Console.out("synclab bench: \(store), \(deviceCount) devices, seed \(seed), \(ProcessInfo.processInfo.activeProcessorCount) cores")
            Console.out(String(format: "  events          %12d  %12.0f /s", stats.events, Double(stats.events) / max(wallSeconds, 1e-9)))
            Console.out(String(format: "  user operations %12d  %12.0f /s", stats.operations, Double(stats.operations) / max(wallSeconds, 1e-9)))
            Console.out(String(format: "  deliveries      %12d  %12.0f /s", stats.deliveries, Double(stats.deliveries) / max(wallSeconds, 1e-9)))
            Console.out(String(format: "  simulated %.1f s in %.3f s wall: %.0fx real time", simulatedSeconds, wallSeconds, simulatedSeconds / max(wallSeconds, 1e-9)))
            Console.out(String(format: "  peak memory %.1f MB", Double(ProcessMemory.peakResidentBytes()) / 1_048_576))
        }
        return .success
    }

    /// The no-op event path: heap plus dispatch, nothing else.
    static func kernel(format: String, seed: UInt64) -> ExitStatus {
        let events = 10_000_000, pending = 1_000
        let clock = ContinuousClock()
        let started = clock.now
        let checksum = KernelBenchmark.run(events: events, pending: pending, seed: seed)
        let elapsed = clock.now - started
        let wallSeconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
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

    /// The synthetic scenario: every device writes at random times drawn from the seed.
    static func workload(devices deviceCount: Int, duration: SimDuration, interval: SimDuration, keys: Int, records: Bool, seed: UInt64) -> ScenarioRun {
        var random = SeededRandom(seed: seed, stream: "bench/workload")
        let devices = (0..<deviceCount).map { DeviceSpec(id: "d\($0)") }
        var steps: [Step] = []
        if records {
            for index in 0..<deviceCount {
                steps.append(Step(at: .start, devices: [index], op: .zoneCreate(database: .private, zone: "Bench"), source: "bench", fileIndex: 0))
            }
        }
        for index in 0..<deviceCount {
            var time = SimInstant.start
            var written = 0
            while true {
                let gap = -log(max(random.nextUnit(), 1e-12)) * Double(interval.microseconds)
                time = time + SimDuration(microseconds: Int64(gap))
                guard time.microseconds <= duration.microseconds else { break }
                let key = Int(random.next() % UInt64(keys))
                written += 1
                let op: StepOp = records
                    ? .recordSave(RecordFieldsChange(database: .private, zone: "Bench", type: "Item", name: "r\(key)",
                                                     fields: [FieldAssignment(name: "value", value: .int(Int64(written)))]))
                    : .kvsSet(entries: [PlistEntry(key: "k\(key)", value: .integer(Int64(written)))])
                steps.append(Step(at: time, devices: [index], op: op, source: "bench", fileIndex: 1))
            }
        }
        steps.sort { $0.at < $1.at }
        var end = EndSpec()
        end.settle = .minutes(10)
        return ScenarioRun(scenarioName: "bench", description: "synthetic workload", variant: "base", seed: seed, duration: duration,
                           accounts: ["main"], environment: .development, limits: Limits(), engine: EngineSettings(),
                           network: LinkSettings(), devices: devices, steps: steps, end: end, expect: Expectations())
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
