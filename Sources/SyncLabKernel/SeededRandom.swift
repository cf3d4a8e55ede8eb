/// xoshiro256**: the seeded generator every random choice in a run comes from.
///
/// A run has one seed; each consumer (a device, a link, the upload jitter) takes its own named
/// sub-stream from `SeededRandom(seed:stream:)`, so adding a device does not reshuffle the
/// randomness another device sees (SPEC §2). Stream seeds come from FNV-1a of the name, never
/// from `hashValue`.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    @usableFromInline var s0: UInt64, s1: UInt64, s2: UInt64, s3: UInt64

    /// A generator for one seed.
    public init(seed: UInt64) {
        var mixer = SplitMix64(seed: seed)
        s0 = mixer.next(); s1 = mixer.next(); s2 = mixer.next(); s3 = mixer.next()
        if s0 | s1 | s2 | s3 == 0 { s0 = 1 }
    }

    /// The sub-stream named `stream` of the run seeded with `seed`.
    public init(seed: UInt64, stream: String) {
        var hasher = FNV1a64()
        hasher.combine(stream.utf8)
        var mixer = SplitMix64(seed: hasher.value)
        self.init(seed: seed ^ mixer.next())
    }

    @inlinable public mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3
        s2 ^= t
        s3 = (s3 << 45) | (s3 >> 19)
        return result
    }

    /// A uniform double in [0, 1) with 53 bits of precision.
    @inlinable public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// True with probability `probability` (0 never draws, so a lossless link consumes no randomness).
    @inlinable public mutating func chance(_ probability: Double) -> Bool {
        if probability <= 0 { return false }
        if probability >= 1 { return true }
        return nextUnit() < probability
    }
}
