import SimKernel
import SyncProtocol

// Placeholder: the KVS issue implements this service.
public struct KVSService: Sendable {
    public init(configuration: CloudConfiguration) {}
    public mutating func handle(_ request: RequestEnvelope, _ body: KVSRequest, _ context: inout CloudContext) {}
    public func finalView(account: AccountID) -> [ViewEntry] { [] }
}
