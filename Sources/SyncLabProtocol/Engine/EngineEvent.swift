/// An input to a client engine other than an app call. Engines are sans-IO: the simulator (or a
/// real transport) feeds these in and carries out the `EngineAction`s that come back.
public enum EngineEvent: Sendable {
    /// The app launched: at t=0 (a first launch), after `device.restart`, or after `app.install`.
    /// The engine knows from its durable state whether it ever synced before.
    case launched
    /// The app came to the foreground (`app.foreground`, and once in the run's heal phase).
    case foreground
    /// The device went online (true) or offline (false). Engines start believing they are online
    /// unless told otherwise before `launched`.
    case connectivity(online: Bool)
    /// The one outcome of a request this engine sent.
    case response(ResponseEnvelope)
    /// A push for this service arrived.
    case push(PushNotification)
    /// A timer this engine set has fired.
    case timer(EngineTimer)
    /// The device signed into `account` (after a sign-out, or switching accounts).
    case signedIn(AccountID)
    /// The device signed out of iCloud.
    case signedOut
}

/// A timer an engine asked for. Setting a timer with the same `kind` and `id` replaces it.
///
/// Each engine names its timers with an enum of its own (`UInt8` raw values), made and read
/// through `init(_:id:)` and `kind(as:)`, so no engine compares bare numbers; the number is
/// what the simulator keys and traces.
public struct EngineTimer: Hashable, Sendable {
    /// The engine's own meaning (upload, retry, fetch…): the raw value of the engine's timer enum.
    public var kind: UInt8
    /// Tells apart timers of one kind (0 when an engine has one of a kind).
    public var id: Int64
    /// A timer of a raw kind.
    public init(kind: UInt8, id: Int64 = 0) { self.kind = kind; self.id = id }

    /// A timer of an engine's typed kind.
    public init<Kind: RawRepresentable>(_ kind: Kind, id: Int64 = 0) where Kind.RawValue == UInt8 {
        self.init(kind: kind.rawValue, id: id)
    }

    /// The timer's kind as the engine's enum; nil for a number that enum does not have.
    public func kind<Kind: RawRepresentable>(as type: Kind.Type) -> Kind? where Kind.RawValue == UInt8 {
        Kind(rawValue: kind)
    }
}
