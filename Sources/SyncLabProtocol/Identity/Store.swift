/// The three services. The raw value is the name used in results and traces.
public enum Store: String, Hashable, Comparable, Sendable, CaseIterable {
    case kvs
    case documents
    case records
    public static func < (lhs: Store, rhs: Store) -> Bool { lhs.rawValue < rhs.rawValue }

    // Equality and hashing by case, not by raw value: the raw-value defaults compare and hash the
    // name String, and every in-flight request and timer key of the simulator holds a store.
    public static func == (lhs: Store, rhs: Store) -> Bool { lhs.ordinal == rhs.ordinal }
    public func hash(into hasher: inout Hasher) { hasher.combine(ordinal) }

    private var ordinal: UInt8 {
        switch self {
        case .kvs: return 0
        case .documents: return 1
        case .records: return 2
        }
    }
}
