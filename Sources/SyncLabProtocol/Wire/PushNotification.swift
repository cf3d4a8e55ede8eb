/// A best-effort push (like APNs) telling a device that a service has changes for an account.
///
/// Engines must never depend on pushes for correctness: they may be lost or coalesced.
public struct PushNotification: Hashable, Sendable {
    public var store: Store
    public var account: AccountID
    public init(store: Store, account: AccountID) { self.store = store; self.account = account }
}
