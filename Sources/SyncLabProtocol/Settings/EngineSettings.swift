import SyncLabKernel

/// The app-side policies and engine knobs a scenario chooses under `engine` (SPEC §5).
public struct EngineSettings: Hashable, Sendable {
    public var kvs: KVSSettings
    public var documents: DocumentSettings
    public var records: RecordSettings
    public init(kvs: KVSSettings = KVSSettings(), documents: DocumentSettings = DocumentSettings(), records: RecordSettings = RecordSettings()) {
        self.kvs = kvs; self.documents = documents; self.records = records
    }
}

public struct KVSSettings: Hashable, Sendable {
    /// Time from the first pending change to its upload. Default 5 s, plus 0–10 % jitter from the seed.
    public var uploadDelay: SimDuration
    /// Whose clock decides last-writer-wins. Default `.device`.
    public var timestampSource: TimestampSource
    public init(uploadDelay: SimDuration = .seconds(5), timestampSource: TimestampSource = .device) {
        self.uploadDelay = uploadDelay; self.timestampSource = timestampSource
    }
}

/// Which clock stamps a KVS change for last-writer-wins.
public enum TimestampSource: String, Hashable, Sendable, CaseIterable {
    /// The writing device's local clock (Apple's behaviour; skewed clocks bite).
    case device
    /// Arrival order at the cloud.
    case server
}

public struct DocumentSettings: Hashable, Sendable {
    /// What each device's app does when it sees a document in conflict. Default `.keepVersions`.
    public var conflict: DocumentConflictPolicy
    /// How the cloud picks the current version of a conflict. Default `.modificationDate`.
    public var winner: DocumentWinner
    public init(conflict: DocumentConflictPolicy = .keepVersions, winner: DocumentWinner = .modificationDate) {
        self.conflict = conflict; self.winner = winner
    }
}

public enum DocumentConflictPolicy: String, Hashable, Sendable, CaseIterable {
    case lastWriterWins, keepVersions, keepBoth, merge
}

public enum DocumentWinner: String, Hashable, Sendable, CaseIterable {
    case modificationDate, arrival
}

public struct RecordSettings: Hashable, Sendable {
    /// What the app does on `serverRecordChanged`. Default `.merge`.
    public var conflict: RecordConflictPolicy
    /// The save policy the engine uses. Default `.ifServerRecordUnchanged`.
    public var savePolicy: SavePolicy
    public init(conflict: RecordConflictPolicy = .merge, savePolicy: SavePolicy = .ifServerRecordUnchanged) {
        self.conflict = conflict; self.savePolicy = savePolicy
    }
}

public enum RecordConflictPolicy: String, Hashable, Sendable, CaseIterable {
    case serverWins, clientWins, merge
}

public enum SavePolicy: String, Hashable, Sendable, CaseIterable {
    case ifServerRecordUnchanged, changedKeys, allKeys
}

/// CloudKit schema environment (SPEC §4.3).
public enum SchemaEnvironment: String, Hashable, Sendable, CaseIterable {
    /// Record types and fields are created on first save.
    case development
    /// Unknown types or fields, and type changes, fail with `invalidArguments`.
    case production
}
