import SyncProtocol

/// Bytes used per account of the iCloud storage quota that documents and private records share
/// (SPEC §3.4), and by the public database against the container's quota.
public struct StorageLedger: Hashable, Sendable {
    public let quotaBytes: Int64
    /// Indexed by account index; the public database is kept apart.
    public private(set) var usedBytes: [Int64]
    public private(set) var publicUsedBytes: Int64 = 0

    public init(accountCount: Int, quotaBytes: Int64) {
        self.quotaBytes = quotaBytes
        usedBytes = Array(repeating: 0, count: max(accountCount, 1))
    }

    public func used(by account: AccountID) -> Int64 {
        account == .publicDatabase ? publicUsedBytes : usedBytes[Int(account.index)]
    }

    /// True if changing `account`'s usage by `deltaBytes` keeps it within the quota (shrinking always fits).
    public func fits(_ account: AccountID, deltaBytes: Int64) -> Bool {
        deltaBytes <= 0 || used(by: account) + deltaBytes <= quotaBytes
    }

    public mutating func charge(_ account: AccountID, deltaBytes: Int64) {
        if account == .publicDatabase { publicUsedBytes += deltaBytes } else { usedBytes[Int(account.index)] += deltaBytes }
    }
}
