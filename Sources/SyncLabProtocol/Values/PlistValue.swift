/// A property-list value, as NSUbiquitousKeyValueStore stores (SPEC §4.1).
///
/// Dictionaries keep their entries sorted by the UTF-8 bytes of the key, so equal dictionaries
/// are equal values and render identically in every process.
///
/// Not `indirect`: the recursive cases already hold arrays (one pointer each), and boxing every
/// case put each value, even an integer, in its own heap object: one allocation per write and,
/// when a fetched change is compared with a device's old value, a cache miss on the old box.
public enum PlistValue: Hashable, Sendable {
    case string(String)
    case integer(Int64)
    case double(Double)
    case bool(Bool)
    case data([UInt8])
    /// Microseconds since 1970-01-01T00:00:00Z.
    case date(epochMicroseconds: Int64)
    case array([PlistValue])
    case dictionary([PlistEntry])

    /// Builds a dictionary value from entries in any order (sorts them; the last of duplicate keys wins).
    public static func makeDictionary(_ entries: [PlistEntry]) -> PlistValue {
        var byKey: [String: PlistValue] = [:]
        for entry in entries { byKey[entry.key] = entry.value }
        let sorted = byKey.map { PlistEntry(key: $0.key, value: $0.value) }
            .sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        return .dictionary(sorted)
    }

    /// The size the KVS limits count (SPEC §4.1): UTF-8 bytes of strings, byte count of data,
    /// 8 for numbers and dates, 1 for bools, the sum of elements (plus key bytes) for containers.
    public var sizeBytes: Int {
        switch self {
        case .string(let text): return text.utf8.count
        case .integer, .double, .date: return 8
        case .bool: return 1
        case .data(let bytes): return bytes.count
        case .array(let elements): return elements.reduce(0) { $0 + $1.sizeBytes }
        case .dictionary(let entries): return entries.reduce(0) { $0 + $1.key.utf8.count + $1.value.sizeBytes }
        }
    }
}

/// One key and value of a `PlistValue.dictionary`.
public struct PlistEntry: Hashable, Sendable {
    public var key: String
    public var value: PlistValue
    public init(key: String, value: PlistValue) { self.key = key; self.value = value }
}
