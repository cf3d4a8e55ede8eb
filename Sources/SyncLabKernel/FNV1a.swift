/// 64-bit FNV-1a: the fixed hash used for sub-stream seeds and the trace digest (SPEC §2).
///
/// Never `hashValue`: Swift seeds `Hasher` per process, FNV-1a is the same everywhere.
public struct FNV1a64: Sendable {
    public static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    public static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// The hash so far.
    public var value: UInt64 = FNV1a64.offsetBasis

    public init() {}

    /// A hash already computed (to spell it with `hexDigest`).
    public init(value: UInt64) { self.value = value }

    @inlinable public mutating func combine<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        var hash = value
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* FNV1a64.prime }
        value = hash
    }

    public mutating func combine(_ string: String) { combine(string.utf8) }

    public static func hash(_ string: String) -> UInt64 {
        var hasher = FNV1a64(); hasher.combine(string.utf8); return hasher.value
    }

    /// The value as 16 lower-case hex digits.
    public var hexDigest: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
