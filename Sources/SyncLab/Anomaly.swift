internal import SyncLabHistory

/// One anomaly the checker found (SPEC §6), as `result.json` lists it.
public struct Anomaly: Hashable, Sendable, CustomStringConvertible {
    /// `lostUpdate`, `divergence`, `resurrection`, `causalityViolation`, `quotaViolation`,
    /// `atomicityViolation`, `isolationViolation`, `missedNotification`, `spuriousNotification`.
    public var kind: String
    /// `kvs`, `documents` or `records`.
    public var store: String
    /// The account's name (`public` for the public database).
    public var account: String
    /// A KVS key, a document path or a record `ZONE/NAME`.
    public var item: String
    /// The record field, for records.
    public var field: String?
    /// The device the anomaly is about.
    public var device: String
    /// True time of the anomaly since the run began.
    public var time: Duration
    /// One sentence saying what happened and why.
    public var explanation: String
    /// The write concerned (`A:3`, `B:m1`), when there is one.
    public var write: String?
    /// The write that replaced it, for lost updates.
    public var replacedBy: String?

    init(_ anomaly: SyncLabHistory.Anomaly) {
        kind = anomaly.kind.rawValue
        store = anomaly.store.rawValue
        account = anomaly.account
        item = anomaly.item
        field = anomaly.field
        device = anomaly.device
        time = .microseconds(anomaly.at.microseconds)
        explanation = anomaly.explanation
        write = anomaly.write
        replacedBy = anomaly.replacedBy
    }

    /// `lostUpdate records Notes/n1.title on A: EXPLANATION`.
    public var description: String {
        "\(kind) \(store) \(item)\(field.map { ".\($0)" } ?? "") on \(device): \(explanation)"
    }
}
