/// The three services. The raw value is the name used in results and traces.
public enum Store: String, Hashable, Comparable, Sendable, CaseIterable {
    case kvs
    case documents
    case records
    public static func < (lhs: Store, rhs: Store) -> Bool { lhs.rawValue < rhs.rawValue }
}
