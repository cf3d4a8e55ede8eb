/// The shape every client engine has (KVS, documents, records).
///
/// Storage: an engine keeps everything it must not lose in `durable` (survives `device.crash`,
/// dropped by `app.delete`); everything else is volatile. A crash is modelled as
/// `init(identity:account:recovering:)` from the last `durable` value, so an engine cannot keep
/// anything it reported as saved in volatile memory by accident.
public protocol ClientEngine: Sendable {
    associatedtype Durable: Sendable

    /// What survives a crash.
    var durable: Durable { get }

    /// A fresh engine (`durable == nil`: first install) or one recovering after a crash.
    /// - Parameters:
    ///   - account: the account the device is signed into, or nil when signed out.
    ///   - requestIDsAfter: the last request id the device's transport sent for this engine's
    ///     store (0: none). Request ids are the transport's numbering, not app data: a reinstalled
    ///     app wiped its counter, yet answers to the old app's requests may still arrive, and
    ///     anyone pairing requests with answers by (device, store, id) must not mix them up. The
    ///     engine numbers its requests after both this and its own durable counter.
    init(identity: EngineIdentity, account: AccountID?, recovering durable: Durable?, requestIDsAfter: UInt64)

    /// Feeds one input; actions go to `context.actions`.
    mutating func handle(_ event: EngineEvent, _ context: inout EngineContext)

    /// True when the engine has no work it could send now. Work blocked on a quota or on a zone the
    /// user deleted, work waiting for the network while offline, and periodic timers do not count.
    var isQuiescent: Bool { get }

    /// What the app sees now, item by item, sorted by item: for asserts and the divergence check.
    func localView() -> [ViewEntry]

    /// Changes accepted locally and not yet acknowledged by the cloud, with an item each, in the
    /// order made. The host reports them as discarded when the app is deleted.
    func pendingWrites() -> [(WriteID, ItemKey)]
}

extension ClientEngine {
    /// An engine on a transport that has sent nothing for its store yet (engine tests).
    public init(identity: EngineIdentity, account: AccountID?, recovering durable: Durable?) {
        self.init(identity: identity, account: account, recovering: durable, requestIDsAfter: 0)
    }
}

/// One item of an app's (or the cloud's) view.
public struct ViewEntry: Hashable, Sendable {
    public var item: ItemKey
    public var value: ItemValue
    /// The write that produced this value, if known.
    public var write: WriteID?
    public init(item: ItemKey, value: ItemValue, write: WriteID?) { self.item = item; self.value = value; self.write = write }
}
