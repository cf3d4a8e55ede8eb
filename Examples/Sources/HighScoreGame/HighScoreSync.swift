import SyncLab

/// The game's iCloud sync: the best score lives in the key-value store under `best`. When
/// another device changes it, the higher of the two wins (max merge), so no device's best
/// score is ever replaced by a lower one.
public struct HighScoreSync: KeyValueStoreApp {
    /// The best score this device's player made: the game keeps it in memory.
    public private(set) var best: Int64 = 0

    public init() {}

    /// The player scored (the game stored it under `best`).
    public mutating func userDidChange(_ keys: [String], store: KeyValueStore) {
        if keys.contains("best"), case .integer(let score)? = store.object(forKey: "best") { best = max(best, score) }
    }

    public mutating func storeDidChangeExternally(_ change: KeyValueStoreChange, store: KeyValueStore) {
        guard change.changedKeys.contains("best") else { return }
        if case .integer(let cloud)? = store.object(forKey: "best"), cloud >= best {
            best = cloud
        } else if best > 0 {
            store.set(.integer(best), forKey: "best")
        }
    }
}

/// The naive version: on every change it writes its own best back without reading the new one
/// (overwrite on conflict). SyncLab finds the other device's higher score it throws away.
public struct NaiveHighScoreSync: KeyValueStoreApp {
    public private(set) var best: Int64 = 0

    public init() {}

    public mutating func userDidChange(_ keys: [String], store: KeyValueStore) {
        if case .integer(let score)? = store.object(forKey: "best") { best = score }
    }

    public mutating func storeDidChangeExternally(_ change: KeyValueStoreChange, store: KeyValueStore) {
        if change.changedKeys.contains("best") && best > 0 { store.set(.integer(best), forKey: "best") }
    }
}
