import SyncLabProtocol

/// A fact: an engine or cloud observation, a notification, or a device's account change.
public enum FactKind: Sendable {
    /// What an engine (with `FactRecord.device`) or the cloud (without) reported.
    case observation(Observation)
    /// A notification an engine delivered to its app.
    case notification(AppNotification)
    /// The device is now signed into this account (nil: signed out).
    case accountChanged(AccountID?)
}
