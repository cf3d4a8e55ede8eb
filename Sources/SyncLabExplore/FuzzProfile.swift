/// What traffic a fuzz campaign generates (SPEC §10 `--profile`).
public enum FuzzProfile: String, Sendable, CaseIterable {
    case kvs, documents, records, mixed

    /// Whether the profile's traffic touches `store`'s ops.
    func uses(_ store: TrafficStore) -> Bool {
        switch self {
        case .kvs: return store == .kvs
        case .documents: return store == .documents
        case .records: return store == .records
        case .mixed: return true
        }
    }
}

/// The three stores, as the generator names them.
enum TrafficStore: String, Sendable, CaseIterable {
    case kvs, documents, records
}
