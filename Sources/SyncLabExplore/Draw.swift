import SyncLabKernel

/// One named sub-stream of a seed's randomness, with the draws the generator needs.
///
/// Each part of a generated scenario (devices, faults, traffic, network…) draws from its own
/// stream, so enabling one more fault kind does not reshuffle the traffic (SPEC §2).
struct Draw {
    private var random: SeededRandom

    init(seed: UInt64, stream: String) { random = SeededRandom(seed: seed, stream: "fuzz/" + stream) }

    /// A uniform integer in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        let span = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(random.next() % span)
    }

    mutating func chance(_ probability: Double) -> Bool { random.nextUnit() < probability }

    mutating func pick<T>(_ choices: [T]) -> T { choices[int(0...(choices.count - 1))] }

    /// A signed duration text (`+12000ms`, `-500ms`) with magnitude in `milliseconds`.
    mutating func signedMilliseconds(_ milliseconds: ClosedRange<Int>) -> String {
        let magnitude = int(milliseconds)
        return (chance(0.5) ? "+" : "-") + "\(magnitude)ms"
    }
}
