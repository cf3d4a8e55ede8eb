import SyncLabProtocol

/// A save refused with `serverRecordChanged` whose record a fetch brought while the save was in
/// doubt: resolved once its whole answer is read (`RecordEngine.resolveRefusalsMetInDoubt`).
struct RefusalMetInDoubt: Sendable {
    var key: RecordKey
    /// The version the fetch brought while the save was in doubt (it came whole with its fetch).
    var seen: ServerRecord
    /// The version the refusal carried.
    var refused: ServerRecord
}
