import SyncLabProtocol

/// `CKSyncEngine.Event.AccountChange.ChangeType`.
public enum HostedAccountChange: Hashable, Sendable {
    case signIn
    case signOut
    case switchAccounts
}
