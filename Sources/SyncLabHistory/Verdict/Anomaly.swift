import SyncLabKernel
import SyncLabProtocol

/// One thing the checker found wrong (SPEC §6).
public struct Anomaly: Sendable, Hashable {
    /// What was found (its raw value is the name results use).
    public var kind: AnomalyKind
    public var store: Store
    /// Account name (`public` for the public database).
    public var account: String
    /// `key`, `path` or `ZONE/NAME`.
    public var item: String
    /// The record field, when the item is a record field.
    public var field: String?
    /// The device concerned (the writer of a lost write, the diverging device…), by name.
    public var device: String
    public var at: SimInstant
    /// One or two plain sentences.
    public var explanation: String
    /// The lost (or offending) write, by name (`A:3`).
    public var write: String?
    /// The write that replaced it, by name.
    public var replacedBy: String?
    /// The limit's name, for quota violations.
    public var limit: String?
    /// Every item of the write, when it had several (a refused `kvs.setMany` or atomic batch):
    /// `expect.anomalies` matches any of them.
    public var items: [String] = []

    public init(kind: AnomalyKind, store: Store, account: String, item: String, field: String?, device: String, at: SimInstant,
                explanation: String, write: String? = nil, replacedBy: String? = nil, limit: String? = nil) {
        self.kind = kind; self.store = store; self.account = account; self.item = item; self.field = field
        self.device = device; self.at = at; self.explanation = explanation; self.write = write
        self.replacedBy = replacedBy; self.limit = limit
    }

    /// Stable order for output: time, kind, item, device.
    public static func precedes(_ lhs: Anomaly, _ rhs: Anomaly) -> Bool {
        if lhs.at != rhs.at { return lhs.at < rhs.at }
        if lhs.kind != rhs.kind { return lhs.kind.rawValue < rhs.kind.rawValue }
        if lhs.item != rhs.item { return lhs.item < rhs.item }
        if (lhs.field ?? "") != (rhs.field ?? "") { return (lhs.field ?? "") < (rhs.field ?? "") }
        if lhs.device != rhs.device { return lhs.device < rhs.device }
        return lhs.explanation < rhs.explanation
    }
}
