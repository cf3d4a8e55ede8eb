import Testing
@testable import SyncLabCLI

/// `synclab fuzz --seeds 0..18446744073709551615` trapped at once (the seed count overflowed),
/// and any range without `--time` was run as one batch: every seed and every outcome in memory.
@Suite("fuzz seed ranges: the whole UInt64 range, bounded batches")
struct FuzzSeedRangeTests {
    static func campaign(_ first: UInt64, _ last: UInt64, shard: String? = nil) -> FuzzCampaign {
        let arguments = ["--seeds", "\(first)..\(last)"] + (shard.map { ["--shard", $0] } ?? [])
        let parsed = try! Arguments(arguments, valued: ["--seeds", "--shard"], flags: [])
        guard case .success(let options) = FuzzOptions.parse(parsed, policyNames: []) else { fatalError("bad test arguments \(arguments)") }
        return FuzzCampaign(options: options)
    }

    @Test("the count of 2^64 seeds is unknown, not a trap; shard counts stay exact")
    func seedCountNoOverflow() {
        #expect(Self.campaign(0, .max).seedCount == nil)
        #expect(Self.campaign(0, .max, shard: "0/1").seedCount == nil)
        #expect(Self.campaign(0, .max, shard: "1/2").seedCount == 1 << 63)
        #expect(Self.campaign(1, .max).seedCount == .max)
        #expect(Self.campaign(3, 10).seedCount == 8)
        #expect(Self.campaign(3, 10, shard: "1/3").seedCount == 3)
        #expect(Self.campaign(3, 4, shard: "4/5").seedCount == 0)
    }

    @Test("batches end at the range's last seed, however large the range")
    func boundedBatches() {
        let whole = Self.campaign(0, .max)
        let (seeds, next) = whole.batch(from: 0, limit: 512)
        #expect(seeds.count == 512 && seeds.first == 0 && seeds.last == 511 && next == 512)
        let (tail, end) = whole.batch(from: .max - 2, limit: 512)
        #expect(tail == [.max - 2, .max - 1, .max] && end == nil)
    }
}
