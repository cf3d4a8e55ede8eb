/// A response of the key-value store service.
public enum KVSResponse: Sendable {
    /// The outcome of an upload: every call of the request is either accepted or rejected.
    /// - `accepted`: calls applied (or applied by an earlier copy of the same request).
    /// - `rejected`: calls refused whole for a limit, with the cloud's values to roll back to.
    /// - `superseded`: the cloud's current state of keys of accepted calls that the call did NOT
    ///   end up owning (it lost last-writer-wins, or a newer write replaced it since): the device
    ///   applies these like fetched changes, so it does not keep showing a value the cloud dropped.
    case uploaded(accepted: [WriteID], rejected: [KVSRejection], superseded: [KVSChange])
    /// Changes since the request's cursor (sorted by key), and the cursor to use next time.
    case changes([KVSChange], cursor: UInt64)

    /// Bytes on the wire that count toward transfer time. KVS payloads are small: 0.
    public var transferBytes: Int64 { 0 }
}
