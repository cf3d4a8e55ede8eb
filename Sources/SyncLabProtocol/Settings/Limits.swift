/// The service limits a scenario may override under `limits` (SPEC §5). Defaults are Apple's.
public struct Limits: Hashable, Sendable {
    public var kvs: KVSLimits
    /// Per-account iCloud storage shared by documents and private records (SPEC §3.4). Default 5 GB.
    public var storageBytes: Int64
    public var records: RecordLimits

    public init(kvs: KVSLimits = KVSLimits(), storageBytes: Int64 = 5 * 1024 * 1024 * 1024, records: RecordLimits = RecordLimits()) {
        self.kvs = kvs; self.storageBytes = storageBytes; self.records = records
    }
}

/// NSUbiquitousKeyValueStore's limits, per account and app (SPEC §4.1).
public struct KVSLimits: Hashable, Sendable {
    /// Longest key, in UTF-8 bytes. Default 64. A longer key is a programming error: `invalidArgument`.
    public var keyBytes: Int
    /// Most keys in the store. Default 1024.
    public var keys: Int
    /// Most bytes of values in the store (keys do not count). Default 1 MB.
    public var totalBytes: Int
    /// Most bytes of one value. Default 1 MB.
    public var valueBytes: Int

    public init(keyBytes: Int = 64, keys: Int = 1024, totalBytes: Int = 1024 * 1024, valueBytes: Int = 1024 * 1024) {
        self.keyBytes = keyBytes; self.keys = keys; self.totalBytes = totalBytes; self.valueBytes = valueBytes
    }
}

/// CloudKit's request and record limits (SPEC §4.3).
public struct RecordLimits: Hashable, Sendable {
    /// Most items (saves plus deletes) in one modify request. Default 400.
    public var batch: Int
    /// Most bytes of one modify request, assets excluded. Default 2 MB.
    public var requestBytes: Int
    /// Most bytes of one record, assets excluded. Default 1 MB.
    public var recordBytes: Int
    /// Largest asset. Default 50 MB.
    public var assetBytes: Int64

    public init(batch: Int = 400, requestBytes: Int = 2 * 1024 * 1024, recordBytes: Int = 1024 * 1024, assetBytes: Int64 = 50 * 1024 * 1024) {
        self.batch = batch; self.requestBytes = requestBytes; self.recordBytes = recordBytes; self.assetBytes = assetBytes
    }
}
