import Foundation
import SyncLabJSON

/// `synclab bench --compare BASELINE.json`: this run's figures as ratios to a saved run's.
enum BenchComparison {
    /// The numeric figures of the baseline entry for this store, workload and device count.
    static func load(_ path: String, store: String, workload: String, devices: Int) -> Result<[(String, Double)], UsageError> {
        guard let data = FileManager.default.contents(atPath: path) else { return .failure(UsageError("cannot read \(path)")) }
        let root: JSONNode
        do { root = try JSON5Reader.parse(bytes: [UInt8](data)) } catch {
            return .failure(UsageError("\(path):\(error.position.line):\(error.position.column): \(error.message)"))
        }
        let entries: [JSONNode]
        switch root.value {
        case .array(let elements): entries = elements
        case .object: entries = [root]
        default: return .failure(UsageError("\(path): expected a bench --format json object or an array of them"))
        }
        for entry in entries {
            guard let members = entry.members else { continue }
            func text(_ key: String) -> String? { if case .string(let value)? = entry[key]?.value { return value } else { return nil } }
            func integer(_ key: String) -> Int64? { if case .integer(let value)? = entry[key]?.value { return value } else { return nil } }
            guard text("store") == store, (text("workload") ?? "writes") == workload, integer("devices") == Int64(devices) else { continue }
            return .success(members.compactMap { member in
                switch member.value.value {
                case .integer(let value): return (member.key, Double(value))
                case .double(let value): return (member.key, value)
                default: return nil
                }
            })
        }
        return .failure(UsageError("\(path): no entry for store \(store), workload \(workload), \(devices) devices"))
    }

    /// One line per figure both runs have: baseline, now, and now ÷ baseline.
    static func print(_ figures: [(String, JSON)], against baseline: [(String, Double)]) {
        Console.out("compared with the baseline (now / then; ofKernel is the machine-independent speed):")
        for (key, value) in figures {
            let now: Double
            switch value {
            case .int(let number): now = Double(number)
            case .double(let number): now = number
            default: continue
            }
            guard let then = baseline.first(where: { $0.0 == key })?.1, key != "seed", key != "cores" else { continue }
            let ratio = then == 0 ? (now == 0 ? 1 : .infinity) : now / then
            Console.out("  " + key.padding(toLength: 22, withPad: " ", startingAt: 0) + String(format: " %14.4g %14.4g  %8.3fx", then, now, ratio))
        }
    }
}
