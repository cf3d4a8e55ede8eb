import SyncLabJSON
import SyncLabProtocol
import SyncLabHistory

/// `expect` (SPEC §5). Every field is optional: only what is given is checked.
public struct Expectations: Sendable {
    public var converged: Bool?
    public var lostUpdates: CountExpectation?
    public var conflicts: CountExpectation?
    public var unresolvedConflicts: CountExpectation?
    public var quotaViolations: CountExpectation?
    /// Each must match at least one anomaly found.
    public var anomalies: [AnomalyPattern] = []
    /// Each must match no anomaly found.
    public var noAnomalies: [AnomalyPattern] = []
    public var final: FinalExpectation?
    public var notifications: [NotificationExpectation] = []
    public var settled: Bool?
    /// Where each expectation is written in the file, by the name its result carries
    /// (`lostUpdates`, `anomalies[0]`, `final.kvs.theme`, `notifications[1]`): GitHub
    /// annotations of a failed one point at its line.
    public var positions: [String: SourcePosition] = [:]
    public init() {}

    /// Where the expectation whose result is named `name` is written: `notifications[1] A
    /// serverChange` is `notifications[1]`. Nil for an assert, an invariant or the event cap,
    /// which no `expect` entry wrote.
    public func position(ofExpectation name: String) -> SourcePosition? {
        if let exact = positions[name] { return exact }
        guard name.hasPrefix("notifications["), let space = name.firstIndex(of: " ") else { return nil }
        return positions[String(name[..<space])]
    }
}

/// An integer expectation: exact, `{"min": n}`, `{"max": n}` or both bounds.
public struct CountExpectation: Hashable, Sendable, CustomStringConvertible {
    public var min: Int?
    public var max: Int?
    /// Written as one integer (`3`), not as a range: outputs echo the form the user wrote, so
    /// `{"min": 2, "max": 2}` stays a range in `result.json`'s `wanted` and the reports.
    public var isExact: Bool
    public init(min: Int?, max: Int?) { self.min = min; self.max = max; self.isExact = false }
    public static func exactly(_ value: Int) -> CountExpectation {
        var count = CountExpectation(min: value, max: value)
        count.isExact = true
        return count
    }

    public func accepts(_ value: Int) -> Bool {
        if let min, value < min { return false }
        if let max, value > max { return false }
        return true
    }

    /// `3`, `{"min": 1}`, `{"max": 2}`, `{"min": 1, "max": 2}`: as written in the scenario.
    public var description: String {
        switch (min, max) {
        case let (low?, high?) where low == high && isExact: return "\(low)"
        case let (low?, high?): return "{\"min\": \(low), \"max\": \(high)}"
        case let (low?, nil): return "{\"min\": \(low)}"
        case let (nil, high?): return "{\"max\": \(high)}"
        case (nil, nil): return "{}"
        }
    }
}

/// Matches anomalies by kind and optionally store, item (`key`, `path`, `ZONE/NAME` or
/// `ZONE/NAME.field`) and device id.
public struct AnomalyPattern: Hashable, Sendable {
    public var kind: AnomalyKind
    public var store: String?
    public var item: String?
    public var device: String?
    public init(kind: AnomalyKind, store: String? = nil, item: String? = nil, device: String? = nil) {
        self.kind = kind; self.store = store; self.item = item; self.device = device
    }
}

/// `expect.final`: the cloud's final state of the first account; nil values mean absent.
public struct FinalExpectation: Sendable {
    public var kvs: [(key: String, value: PlistValue?)] = []
    public var documents: [(path: String, content: DocumentContent?)] = []
    public var records: [(name: String, fields: [FieldAssignment]?)] = []
    public init() {}
}

/// `expect.notifications` entry: how many notifications with `reason` a device's app got.
/// With neither bound: at least one.
public struct NotificationExpectation: Hashable, Sendable {
    public var device: String
    public var reason: String
    public var min: Int?
    public var max: Int?
    public init(device: String, reason: String, min: Int? = nil, max: Int? = nil) {
        self.device = device; self.reason = reason; self.min = min; self.max = max
    }
}
