import SyncLabProtocol

/// A zone deletion fetched from the cloud, with `CKDatabase.DatabaseChange.Deletion.Reason`.
public struct HostedZoneDeletion: Hashable, Sendable {
    public enum Reason: String, Hashable, Sendable {
        /// An app deleted the zone.
        case deleted
        /// The user deleted the zone's data from Settings: upload nothing more into it.
        case purged
        /// The zone is gone because the account's data was reset (token epoch) — not used yet.
        case encryptedDataReset
    }
    public var zone: String
    public var reason: Reason
    public init(zone: String, reason: Reason) { self.zone = zone; self.reason = reason }
}
