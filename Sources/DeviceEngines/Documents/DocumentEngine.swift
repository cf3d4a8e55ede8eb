import SimKernel
import SyncProtocol

// Placeholder: the documents issue implements this engine.
public struct DocumentEngine: ClientEngine {
    public struct Durable: Sendable {}
    public var durable: Durable { Durable() }
    public init(identity: EngineIdentity, account: AccountID?, recovering durable: Durable?) {}
    public mutating func handle(_ event: EngineEvent, _ context: inout EngineContext) {}
    public var isQuiescent: Bool { true }
    public func localView() -> [ViewEntry] { [] }
    public func pendingWrites() -> [(WriteID, ItemKey)] { [] }
    public mutating func save(path: String, content: DocumentContent, write: WriteID, _ context: inout EngineContext) -> AppCallResult { .rejected(error: "notImplemented") }
    public mutating func append(path: String, text: String, write: WriteID, _ context: inout EngineContext) -> AppCallResult { .rejected(error: "notImplemented") }
    public mutating func delete(path: String, write: WriteID, _ context: inout EngineContext) -> AppCallResult { .rejected(error: "notImplemented") }
}
