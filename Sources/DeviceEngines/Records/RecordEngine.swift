import SimKernel
import SyncProtocol

// Placeholder: the records issue implements this engine.
public struct RecordEngine: ClientEngine {
    public struct Durable: Sendable {}
    public var durable: Durable { Durable() }
    public init(identity: EngineIdentity, account: AccountID?, recovering durable: Durable?) {}
    public mutating func handle(_ event: EngineEvent, _ context: inout EngineContext) {}
    public var isQuiescent: Bool { true }
    public func localView() -> [ViewEntry] { [] }
    public func pendingWrites() -> [(WriteID, ItemKey)] { [] }
    public mutating func createZone(database: DatabaseScope, zone: String, write: WriteID, _ context: inout EngineContext) -> AppCallResult { .rejected(error: "notImplemented") }
    public mutating func deleteZone(database: DatabaseScope, zone: String, byUser: Bool, write: WriteID, _ context: inout EngineContext) -> AppCallResult { .rejected(error: "notImplemented") }
    public mutating func save(_ change: RecordFieldsChange, write: WriteID, _ context: inout EngineContext) -> AppCallResult { .rejected(error: "notImplemented") }
    public mutating func delete(database: DatabaseScope, zone: String, name: String, write: WriteID, _ context: inout EngineContext) -> AppCallResult { .rejected(error: "notImplemented") }
    public mutating func saveAtomic(database: DatabaseScope, zone: String, saves: [RecordFieldsChange], deletes: [String], write: WriteID, _ context: inout EngineContext) -> AppCallResult { .rejected(error: "notImplemented") }
    public mutating func createSubscription(database: DatabaseScope, _ context: inout EngineContext) {}
}
