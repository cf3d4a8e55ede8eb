import Foundation
import SyncLabKernel
import SyncLabProtocol
import SyncLabScenario

/// The synthetic scenarios `synclab bench` runs, built from the seed (two runs with one seed do
/// the same work).
struct BenchWorkload {
    /// Which store the writes go to: `kvs`, `documents`, `records`, or `mixed` (each write picks one).
    var store = "kvs"
    /// `writes` (every device writes), `idle` (devices launch and do nothing: bytes per idle
    /// device), `offline` (every device starts in airplane mode, so each write stays pending:
    /// bytes per pending change), `day` (a simulated day of all three stores with airplane windows).
    var kind = "writes"
    var devices = 1000
    var duration = SimDuration.minutes(2)
    var interval = SimDuration.seconds(60)
    var keys = 100
    var seed: UInt64 = 1

    static let stores = ["kvs", "documents", "records", "mixed"]
    static let kinds = ["writes", "idle", "offline", "day"]

    /// The scenario run.
    func scenario() -> ScenarioRun {
        var random = SeededRandom(seed: seed, stream: "bench/workload")
        let startOnline = kind != "offline"
        let devices = (0..<self.devices).map { DeviceSpec(id: "d\($0)", online: startOnline) }
        var steps: [Step] = []
        let usesRecords = store == "records" || store == "mixed"
        if usesRecords && kind != "idle" {
            for index in 0..<self.devices {
                steps.append(Step(at: .start, devices: [index], op: .zoneCreate(database: .private, zone: "Bench"), source: "bench", fileIndex: 0))
            }
        }
        if kind != "idle" {
            for index in 0..<self.devices {
                var time = SimInstant.start
                var written = 0
                while true {
                    time = time + exponential(interval, &random)
                    guard time.microseconds <= duration.microseconds else { break }
                    let key = Int(random.next() % UInt64(keys))
                    written += 1
                    let target = store == "mixed" ? ["kvs", "documents", "records"][Int(random.next() % 3)] : store
                    steps.append(Step(at: time, devices: [index], op: write(target, key: key, value: written), source: "bench", fileIndex: 1))
                }
                if kind == "day" { steps += airplaneWindows(device: index, &random) }
            }
        }
        steps.sort { $0.at < $1.at }
        var end = EndSpec()
        end.settle = .minutes(10)
        return ScenarioRun(scenarioName: "bench", description: "synthetic workload", variant: "base", seed: seed,
                           duration: kind == "idle" ? .seconds(1) : duration,
                           accounts: ["main"], environment: .development, limits: Limits(), engine: EngineSettings(),
                           network: LinkSettings(), devices: devices, steps: steps, end: end, expect: Expectations())
    }

    /// One user write of `value` to item number `key` of a store.
    private func write(_ store: String, key: Int, value: Int) -> StepOp {
        switch store {
        case "documents": return .docSave(path: "doc\(key).txt", content: .text("v\(value)"))
        case "records":
            return .recordSave(RecordFieldsChange(database: .private, zone: "Bench", type: "Item", name: "r\(key)",
                                                  fields: [FieldAssignment(name: "value", value: .int(Int64(value)))]))
        default: return .kvsSet(entries: [PlistEntry(key: "k\(key)", value: .integer(Int64(value)))])
        }
    }

    /// A day's airplane windows for one device: three, at random times, 10 to 60 minutes each.
    private func airplaneWindows(device: Int, _ random: inout SeededRandom) -> [Step] {
        var steps: [Step] = []
        for _ in 0..<3 {
            let start = SimInstant(microseconds: Int64(random.next() % UInt64(max(duration.microseconds, 1))))
            let length = SimDuration.minutes(10) + SimDuration(microseconds: Int64(random.next() % UInt64(SimDuration.minutes(50).microseconds)))
            let end = start + length
            guard end.microseconds <= duration.microseconds else { continue }
            steps.append(Step(at: start, devices: [device], op: .airplaneOn, source: "bench", fileIndex: 1))
            steps.append(Step(at: end, devices: [device], op: .airplaneOff, source: "bench", fileIndex: 1))
        }
        return steps
    }

    private func exponential(_ mean: SimDuration, _ random: inout SeededRandom) -> SimDuration {
        SimDuration(microseconds: Int64(-log(max(random.nextUnit(), 1e-12)) * Double(mean.microseconds)))
    }
}
