/// Everything a report shows about one run, rebuilt from the saved `trace.jsonl` and `result.json`.
///
/// Built only from those two files (never from the simulator's memory), so the reports that
/// `synclab run` writes and the ones `synclab report` regenerates are the same bytes by
/// construction. Times are true time in microseconds from the scenario's start.
public struct ReportModel: Sendable {
    /// A device's lane: who it is and how its clock is off.
    public struct Lane: Sendable {
        public var name: String
        public var account: String
        public var clockOffsetMicroseconds: Int64
        /// Drift as written in the trace (`0.0`, `150.0`).
        public var driftPpm: String
        public var initiallyOnline: Bool
    }

    /// A span of true time `[start, end)` on one lane.
    public struct Interval: Sendable {
        public var lane: Int
        public var start: Int64
        public var end: Int64
        /// What happened (`offline`, `crashed`, `cloud outage`, `throttled`).
        public var what: String
    }

    /// One user-level operation (a write, airplane mode, a sign-in…).
    public struct Operation: Sendable {
        public var lane: Int
        public var at: Int64
        /// The device's own clock when the op ran (only for writes).
        public var localAt: Int64?
        public var op: String
        /// The write's name (`A:3`), for ops that write.
        public var write: String?
        public var summary: String?
        /// `accepted`, `unchanged`, `rejected: …`.
        public var outcome: String?
        public var step: String
    }

    /// A request and its response, as they crossed the network.
    public struct Message: Sendable {
        public var lane: Int
        public var store: String
        public var request: Int64
        /// The request's case name (`upload`, `fetch`, …).
        public var kind: String
        public var bytes: Int64
        public var sentAt: Int64
        /// When it reached the cloud; nil if it never did.
        public var cloudAt: Int64?
        /// Why it never reached the cloud (`networkUnavailable`, `lost`, `dropped`).
        public var requestFate: String?
        public var respondedAt: Int64?
        public var result: String?
        /// When the response reached the device; nil if it never did.
        public var deviceAt: Int64?
        /// Why the response never arrived (`lost`, `nobody waiting`, `dropped`, `timeout`).
        public var responseFate: String?
    }

    /// A push from the cloud to a device.
    public struct Push: Sendable {
        public var lane: Int
        public var store: String
        public var sentAt: Int64
        public var arrivedAt: Int64?
        /// `lost`, `held while offline`, `device down`, or nil when delivered.
        public var fate: String?
    }

    /// A point event worth a mark: a conflict, a rejection, a last-writer-wins decision, a
    /// discarded change, a failed assert, a clock change.
    public struct Marker: Sendable {
        public enum Kind: String, Sendable {
            case conflict, conflictShown, rejected, lastWriterWins, discarded, assertFailed, clock
        }
        public var kind: Kind
        /// Lane index, or nil for the cloud lane.
        public var lane: Int?
        public var at: Int64
        /// The item (`note.txt`, `Notes/n1.title`), when there is one.
        public var item: String
        /// One plain line.
        public var text: String
        /// Writes named by the event.
        public var writes: [String]
    }

    /// An anomaly from `result.json`.
    public struct Anomaly: Sendable {
        public var number: Int
        public var kind: String
        public var store: String
        public var account: String
        public var item: String
        public var field: String?
        public var device: String
        public var at: Int64
        public var explanation: String
        public var write: String?
        public var replacedBy: String?
        public var limit: String?
        /// `item` or `item.field`.
        public var itemLabel: String { field.map { "\(item).\($0)" } ?? item }
    }

    /// An expectation from `result.json`, with `wanted`/`actual` as compact JSON.
    public struct Expectation: Sendable {
        public var name: String
        public var wanted: String
        public var actual: String
        public var passed: Bool
    }

    /// Where a write was made (an op, or an engine's derived write).
    public struct WritePlace: Sendable {
        public var lane: Int
        public var at: Int64
        public var summary: String
    }

    // From result.json.
    public var scenario: String
    public var file: String
    public var variant: String
    public var seed: String
    public var passed: Bool
    public var settled: Bool
    public var events: String
    public var endMicroseconds: Int64
    /// `(name, compact JSON)` in the result's order.
    public var metrics: [(String, String)]
    public var anomalies: [Anomaly]
    public var expectations: [Expectation]
    /// The run hit `end.maxEvents` and was cut off: the checker did not judge it (SPEC §5), so
    /// "no anomalies" would say what nobody looked for.
    public var cutOffByEventCap: Bool { expectations.contains { $0.name == "end.maxEvents" && !$0.passed } }

    /// The digest of the trace the result was written with (`fnv1a64:…`), if it records one.
    public var traceDigest: String?

    /// This run's folder in a variant comparison, relative to the comparison, as whoever laid the
    /// folders out chose it (`VariantPaths.folders(for:)` when running, the folder found when
    /// regenerating); nil when nobody did.
    public var folder: String?

    /// The comparison shows this run from the reports an earlier `synclab run` left in its folder
    /// (`synclab run --variant` ran other variants, not this one), so the comparison says so.
    public var fromEarlierRun = false

    /// Where the comparison links to this run: `folder`, else the variant's own folder name.
    public var variantFolder: String { folder ?? VariantPaths.folder(variant) }

    // From trace.jsonl.
    /// The scenario's description, when the trace header carries one.
    public var description: String
    public var lanes: [Lane]
    public var downtime: [Interval]
    /// Outages and throttling (lane -1 means the cloud).
    public var cloudIntervals: [Interval]
    public var operations: [Operation]
    public var messages: [Message]
    public var pushes: [Push]
    public var markers: [Marker]
    /// Write name → where it was made. Looked up only; never iterated into output.
    public var writePlaces: [String: WritePlace]
    /// Lane name → its first lane, built with the lanes (looked up only).
    var laneByName: [String: Int] = [:]
    /// Per lane, where its intervals start and end in `downtime` (sorted by lane, then start),
    /// and the latest end among each interval and those before it on the lane: what lets
    /// `downInterval` answer by binary search. Built once `downtime` is final.
    var downtimeRanges: [Range<Int>] = []
    var downtimeEndsSoFar: [Int64] = []

    /// The writes the anomalies name (lost, replacing, rejected): always drawn and labelled.
    public var anomalyWrites: Set<String> {
        var writes: Set<String> = []
        for anomaly in anomalies {
            if let write = anomaly.write { writes.insert(write) }
            if let replacedBy = anomaly.replacedBy { writes.insert(replacedBy) }
        }
        return writes
    }

    /// A metric's compact JSON text, or `?`.
    public func metric(_ name: String) -> String {
        metrics.first { $0.0 == name }?.1 ?? "?"
    }

    /// Was `lane` offline (or down) at `time`? Returns the interval: the first, in `downtime`'s
    /// order, that holds `time`.
    /// - Complexity: O(log(the lane's intervals)); a report asks once per anomaly, and 20,000
    ///   anomalies over thousands of intervals made a linear search the report's whole cost.
    public func downInterval(lane: Int, at time: Int64) -> Interval? {
        guard lane >= 0 && lane < downtimeRanges.count else { return nil }
        let range = downtimeRanges[lane]
        // The first interval whose end, or an earlier one's on the lane, is past `time`: every
        // interval before it ended by then, and if it starts after `time` so do all after it.
        var low = range.lowerBound, high = range.upperBound
        while low < high {
            let middle = (low + high) / 2
            if downtimeEndsSoFar[middle] > time { high = middle } else { low = middle + 1 }
        }
        guard low < range.upperBound, downtime[low].start <= time, time < downtime[low].end else { return nil }
        return downtime[low]
    }

    /// The last of `lane`'s intervals still open at the end of the run (`end` at or past it).
    func downAtEnd(lane: Int) -> Interval? {
        guard lane >= 0 && lane < downtimeRanges.count else { return nil }
        return downtime[downtimeRanges[lane]].last { $0.end >= endMicroseconds }
    }

    /// Builds `downtimeRanges` and `downtimeEndsSoFar` from the sorted `downtime`.
    mutating func indexDowntime() {
        downtimeRanges = Array(repeating: 0..<0, count: lanes.count)
        downtimeEndsSoFar = []
        downtimeEndsSoFar.reserveCapacity(downtime.count)
        var start = 0
        while start < downtime.count {
            let lane = downtime[start].lane
            var end = start
            var latest = Int64.min
            while end < downtime.count && downtime[end].lane == lane {
                latest = max(latest, downtime[end].end)
                downtimeEndsSoFar.append(latest)
                end += 1
            }
            if lane >= 0 && lane < lanes.count { downtimeRanges[lane] = start..<end }
            start = end
        }
    }

    /// The first lane named `name`.
    /// - Complexity: O(1): asked per anomaly, over thousands of lanes.
    public func laneIndex(_ name: String) -> Int? { laneByName[name] }
}
