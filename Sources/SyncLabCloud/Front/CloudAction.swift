import SyncLabProtocol

/// What the cloud asks its host (the simulated network) to do.
public enum CloudAction: Sendable {
    /// Send this response back to the device that asked.
    case respond(ResponseEnvelope)
    /// Push to one device (a CloudKit subscription's device).
    case push(PushNotification, to: DeviceID)
    /// Push to every device known to be signed into `notification.account`, except `except`.
    case pushAccount(PushNotification, except: DeviceID?)
    /// Record a fact for the checker. Boxed, so the ~100-byte observation does not set the
    /// width of every action.
    indirect case observe(Observation)
    /// A trace line from the cloud (`details` in order).
    case log(event: String, details: [(String, String)])
    /// A trace line from the cloud with typed details: the index of its `LogFields` in the
    /// context's `logs` (not boxed here: a box was an allocation and a release per line).
    case logFields(Int)
}
