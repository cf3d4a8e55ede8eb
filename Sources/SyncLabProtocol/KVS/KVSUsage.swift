/// How much of a key-value store's limits a set of values uses, and whether a change fits.
///
/// Shared by the device (local limit check before a write is accepted) and the cloud (the check
/// that catches limits broken only by two devices together), so both count sizes the same way
/// (SPEC §4.1: key strings do not count; value sizes per `PlistValue.sizeBytes`).
public struct KVSUsage: Hashable, Sendable {
    /// Keys that hold a value (removed keys do not count).
    public var keyCount: Int
    /// Σ of the live values' sizes.
    public var totalBytes: Int

    public init(keyCount: Int = 0, totalBytes: Int = 0) { self.keyCount = keyCount; self.totalBytes = totalBytes }

    /// The usage after replacing `old` by `new` for one key (nil = no value).
    public func replacing(_ old: PlistValue?, with new: PlistValue?) -> KVSUsage {
        var result = self
        if let old { result.keyCount -= 1; result.totalBytes -= old.sizeBytes }
        if let new { result.keyCount += 1; result.totalBytes += new.sizeBytes }
        return result
    }

    /// The name of the limit that going from `self` to `after` would break, or nil if it fits.
    ///
    /// A limit already exceeded counts as broken only if the change makes it worse, so a store that
    /// ended up over a limit (a local write plus a fetched value) can still shrink.
    /// - Parameter newValues: the values the change writes (each checked against `valueBytes`).
    public func violation(to after: KVSUsage, newValues: [PlistValue], limits: KVSLimits) -> String? {
        if newValues.contains(where: { $0.sizeBytes > limits.valueBytes }) { return "kvs.valueBytes" }
        if after.keyCount > limits.keys && after.keyCount > keyCount { return "kvs.keys" }
        if after.totalBytes > limits.totalBytes && after.totalBytes > totalBytes { return "kvs.totalBytes" }
        return nil
    }
}
