import Testing
import SyncLabExplore

@Suite struct CampaignTests {
    static let runner = SeedRunner(profile: .kvs, policies: .lossless, rule: .find("causalityViolation"))
    static let seeds = UInt64(1)...24

    static func summary(shard: CampaignSummary.Shard?) -> CampaignSummary {
        var summary = CampaignSummary(profile: "kvs", policies: [], find: "causalityViolation", firstSeed: seeds.lowerBound, lastSeed: seeds.upperBound, shard: shard)
        for seed in seeds where shard?.contains(seed, first: seeds.lowerBound) ?? true { summary.add(runner.run(seed)) }
        return summary
    }

    @Test func shardsMergeIntoTheUnshardedSummaryByteForByte() throws {
        let whole = CampaignTests.summary(shard: nil)
        #expect(!whole.findings.isEmpty) // the test means something only if there is something to merge
        let shards = (0..<3).map { CampaignTests.summary(shard: CampaignSummary.Shard(index: $0, count: 3)) }
        // Through the files' text, as `synclab fuzz merge` reads them.
        let parsed = try shards.map { try CampaignSummary.parse($0.json.renderedPretty()).get() }
        let merged = try CampaignSummary.merge(parsed.reversed()).get()
        #expect(merged.json.renderedPretty() == whole.json.renderedPretty())
        #expect(merged.markdown == whole.markdown)
    }

    /// A KVS campaign has no policies: its campaign.md header said "policies: ;".
    @Test func aCampaignWithoutPoliciesSaysNoneInItsHeader() {
        let summary = CampaignSummary(profile: "kvs", policies: [], find: nil, firstSeed: 1, lastSeed: 2, shard: nil)
        #expect(summary.markdown.contains("- profile: `kvs`; policies: (none); findings are broken promises"))
        let mixed = CampaignSummary(profile: "mixed", policies: ["keepVersions", "merge"], find: nil, firstSeed: 1, lastSeed: 2, shard: nil)
        #expect(mixed.markdown.contains("policies: `keepVersions`, `merge`;"))
    }

    @Test func twoRunsAreIdentical() {
        #expect(CampaignTests.summary(shard: nil).json.renderedPretty() == CampaignTests.summary(shard: nil).json.renderedPretty())
    }

    @Test func mergeRefusesMissingOrMixedShards() throws {
        let zero = CampaignTests.summary(shard: CampaignSummary.Shard(index: 0, count: 2))
        #expect(throws: CampaignMergeError.self) { try CampaignSummary.merge([zero]).get() }
        var other = zero
        other.profile = "documents"
        other.shard = CampaignSummary.Shard(index: 1, count: 2)
        #expect(throws: CampaignMergeError.self) { try CampaignSummary.merge([zero, other]).get() }
    }

    @Test func coverageCountsHazardsThatHappened() {
        var coverage = Coverage()
        let mixed = SeedRunner(profile: .mixed, policies: .lossless, rule: .promises)
        for seed in UInt64(1)...12 { coverage.add(mixed.run(seed).coverage) }
        #expect(coverage.counts[Coverage.hazards.firstIndex(of: "conflicts")!] > 0)
    }
}
