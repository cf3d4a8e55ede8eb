import SimKernel
import SyncProtocol

// Placeholder: the Records issue implements this service.
public struct RecordService: Sendable {
    public init(configuration: CloudConfiguration) {}
    public mutating func handle(_ request: RequestEnvelope, _ body: RecordRequest, _ context: inout CloudContext, storage: inout StorageLedger) {}
    public func finalView(account: AccountID) -> [ViewEntry] { [] }
    public mutating func expireTokens() {}
}
