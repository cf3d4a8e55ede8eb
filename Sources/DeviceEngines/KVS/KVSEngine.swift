import SimKernel
import SyncProtocol

// Placeholder: the KVS issue implements this engine.
public struct KVSEngine: ClientEngine {
    public struct Durable: Sendable {}
    public var durable: Durable { Durable() }
    public init(identity: EngineIdentity, account: AccountID?, recovering durable: Durable?) {}
    public mutating func handle(_ event: EngineEvent, _ context: inout EngineContext) {}
    public var isQuiescent: Bool { true }
    public func localView() -> [ViewEntry] { [] }
    public func pendingWrites() -> [(WriteID, ItemKey)] { [] }
    /// `kvs.set` / `kvs.setMany` / `kvs.remove`: one atomic call; a nil value removes the key.
    public mutating func set(_ entries: [(key: String, value: PlistValue?)], write: WriteID, _ context: inout EngineContext) -> AppCallResult { .rejected(error: "notImplemented") }
    /// `kvs.increment`: read the local integer (absent = 0), set it plus `by`.
    public mutating func increment(key: String, by: Int64, write: WriteID, _ context: inout EngineContext) -> AppCallResult { .rejected(error: "notImplemented") }
    /// `kvs.synchronize`: persist (already done) and fetch.
    public mutating func synchronize(_ context: inout EngineContext) {}
}
