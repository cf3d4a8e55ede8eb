import SyncLabProtocol

/// Bytes used per account of the iCloud storage quota that documents and private records share
/// (SPEC §3.4), and by the public database against the container's quota.
public struct StorageLedger: Hashable, Sendable {
    public let quotaBytes: Int64
    /// Indexed by account index; the public database is kept apart.
    public private(set) var usedBytes: [Int64]
    public private(set) var publicUsedBytes: Int64 = 0
    /// Per account: a write was refused for lack of space since its usage last shrank.
    private var refused: [Bool]
    /// Accounts whose usage shrank after a refusal, in the order it happened, not yet announced.
    public private(set) var freedAfterRefusal: [AccountID] = []

    public init(accountCount: Int, quotaBytes: Int64) {
        self.quotaBytes = quotaBytes
        usedBytes = Array(repeating: 0, count: max(accountCount, 1))
        refused = Array(repeating: false, count: max(accountCount, 1))
    }

    /// A write of `account` was refused with `quotaExceeded` (the public database's quota is the
    /// container's, and nobody waits on it: ignored).
    public mutating func noteRefusal(_ account: AccountID) {
        if account != .publicDatabase { refused[Int(account.index)] = true }
    }

    /// The accounts to tell that space freed, and forgets them.
    public mutating func takeFreedAfterRefusal() -> [AccountID] {
        defer { freedAfterRefusal.removeAll() }
        return freedAfterRefusal
    }

    public func used(by account: AccountID) -> Int64 {
        account == .publicDatabase ? publicUsedBytes : usedBytes[Int(account.index)]
    }

    /// True if changing `account`'s usage by `deltaBytes` keeps it within the quota (shrinking always fits).
    /// Usage never passes the quota, so `quotaBytes - used` cannot overflow where `used + delta`
    /// could (two documents of 6 EB under a quota of 2^63 - 1 bytes trapped).
    public func fits(_ account: AccountID, deltaBytes: Int64) -> Bool {
        deltaBytes <= 0 || deltaBytes <= quotaBytes - used(by: account)
    }

    public mutating func charge(_ account: AccountID, deltaBytes: Int64) {
        if account == .publicDatabase { publicUsedBytes += deltaBytes; return }
        let index = Int(account.index)
        usedBytes[index] += deltaBytes
        if deltaBytes < 0 && refused[index] {
            refused[index] = false
            freedAfterRefusal.append(account)
        }
    }
}
