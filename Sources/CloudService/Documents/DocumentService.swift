import SimKernel
import SyncProtocol

// Placeholder: the Documents issue implements this service.
public struct DocumentService: Sendable {
    public init(configuration: CloudConfiguration) {}
    public mutating func handle(_ request: RequestEnvelope, _ body: DocumentRequest, _ context: inout CloudContext, storage: inout StorageLedger) {}
    public func finalView(account: AccountID) -> [ViewEntry] { [] }
    public func survivingWrites(account: AccountID) -> [WriteID] { [] }
}
