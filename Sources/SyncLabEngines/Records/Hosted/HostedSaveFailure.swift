import SyncLabProtocol

/// One record save the cloud refused: the record the app sent, the CKError code, and for
/// `serverRecordChanged` the server's record and the ancestor (the version the app's tag named).
public struct HostedSaveFailure: Hashable, Sendable {
    public var record: HostedRecord
    public var error: String
    public var serverRecord: HostedRecord?
    public var ancestorRecord: HostedRecord?
    public init(record: HostedRecord, error: String, serverRecord: HostedRecord?, ancestorRecord: HostedRecord?) {
        self.record = record; self.error = error; self.serverRecord = serverRecord; self.ancestorRecord = ancestorRecord
    }
}
