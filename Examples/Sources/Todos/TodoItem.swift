import SyncLab

/// One to-do as the app models it, with the last record the cloud gave for it (its system
/// fields: what a real app keeps with `encodeSystemFields`), as Apple's CKSyncEngine sample does.
public struct TodoItem: Hashable, Sendable {
    public var title: String?
    public var done: Int64?
    /// The server's last known version (nil: never saved).
    public var lastKnownRecord: SyncRecord?
    /// Edited here since the last save the cloud acknowledged.
    public var needsUpload: Bool

    /// The fields this item puts on a record.
    func populate(_ record: inout SyncRecord) {
        record["title"] = title.map { .string($0) }
        record["done"] = done.map { .integer($0) }
    }

    /// Takes the server's values.
    mutating func take(_ record: SyncRecord) {
        if case .string(let text)? = record["title"] { title = text } else { title = nil }
        if case .integer(let number)? = record["done"] { done = number } else { done = nil }
        lastKnownRecord = record
    }
}
