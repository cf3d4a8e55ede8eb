/// A call the cloud refused as a whole: applying it would break a store limit that only the
/// cloud can see (two devices each within limits, together past them), or some of its keys
/// already hold newer writes, and a call is atomic (SPEC §4.1: all of its keys change, or none).
public struct KVSRejection: Hashable, Sendable {
    /// Why the cloud refused a call.
    public enum Cause: Hashable, Sendable {
        /// It would have broken this limit: `kvs.keys`, `kvs.totalBytes` or `kvs.valueBytes`.
        case limit(String)
        /// Last-writer-wins kept the cloud's newer value of `key` (and of any other key listed
        /// in the cloud's observations), so none of the call's keys changed.
        case olderThanCloud(key: String)
    }

    /// The refused call.
    public var write: WriteID
    public var cause: Cause
    /// The cloud's current state of the call's keys, so the device can roll them back. A key of
    /// the call that is missing here has never been written in the cloud (roll back to absent).
    public var current: [KVSChange]

    /// A call refused for a limit.
    public init(write: WriteID, limit: String, current: [KVSChange]) {
        self.init(write: write, cause: .limit(limit), current: current)
    }

    public init(write: WriteID, cause: Cause, current: [KVSChange]) {
        self.write = write; self.cause = cause; self.current = current
    }

    /// The limit the call would have broken; nil when it lost to newer writes instead.
    public var limit: String? {
        if case .limit(let name) = cause { return name }
        return nil
    }
}
