/// A CloudKit record field value (SPEC §4.3).
///
/// Not `indirect` (as `PlistValue`): `list` already holds an array, and boxing every case gave
/// each field value its own heap object, allocated per write and chased per comparison.
public enum FieldValue: Hashable, Sendable {
    case string(String)
    case int(Int64)
    case double(Double)
    case bytes([UInt8])
    /// Microseconds since 1970-01-01T00:00:00Z.
    case date(epochMicroseconds: Int64)
    case location(latitude: Double, longitude: Double)
    /// A reference to another record of the same zone, by record name.
    case reference(recordName: String, action: ReferenceAction)
    /// An asset: stored apart from the record, counted against the storage quota.
    case asset(sizeBytes: Int64)
    case list([FieldValue])

    /// The size counted toward the 1 MB record limit, by the KVS rules (SPEC §4.3): assets count 0
    /// (they are stored apart), a location 16 (two doubles), a reference its record name's bytes.
    public var sizeBytes: Int {
        switch self {
        case .string(let text): return text.utf8.count
        case .int, .double, .date: return 8
        case .bytes(let bytes): return bytes.count
        case .location: return 16
        case .reference(let name, _): return name.utf8.count
        case .asset: return 0
        case .list(let elements): return elements.reduce(0) { $0 + $1.sizeBytes }
        }
    }

    /// An asset, or a non-empty list of nothing but assets: a value stored entirely apart.
    public var isAssetOnly: Bool {
        switch self {
        case .asset: return true
        case .list(let elements): return !elements.isEmpty && elements.allSatisfy(\.isAssetOnly)
        case .string, .int, .double, .bytes, .date, .location, .reference: return false
        }
    }

    /// The total size of the assets inside this value (an asset, or a list holding assets).
    public var assetBytes: Int64 {
        switch self {
        case .asset(let size): return size
        case .list(let elements): return elements.reduce(0) { $0 + $1.assetBytes }
        case .string, .int, .double, .bytes, .date, .location, .reference: return 0
        }
    }
}

/// What deleting the referenced record does to the referencing record.
public enum ReferenceAction: String, Hashable, Sendable {
    /// Deleting the target deletes this record too (cascade).
    case deleteSelf
    /// The reference may dangle.
    case none
}
