import Testing
@testable import SyncLabKernel

@Suite("Latency distributions")
struct LatencyDistributionTests {
    static let seeds: [UInt64] = [1, 2, 3]

    @Test("fixed latency is exact and draws no randomness")
    func fixed() {
        var random = SeededRandom(seed: 1), untouched = SeededRandom(seed: 1)
        #expect(LatencyDistribution.fixed(.milliseconds(50)).sample(&random) == .milliseconds(50))
        #expect(random.next() == untouched.next())
    }

    @Test("uniform samples stay within [min, max]", arguments: seeds)
    func uniformBounds(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let distribution = LatencyDistribution.uniform(min: .milliseconds(20), max: .milliseconds(120))
        for _ in 0..<5_000 {
            let sample = distribution.sample(&random)
            #expect(sample >= .milliseconds(20) && sample <= .milliseconds(120))
        }
    }

    @Test("normal samples are clamped at zero and centre on the mean", arguments: seeds)
    func normalClampAndMean(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let distribution = LatencyDistribution.normal(mean: .milliseconds(10), stddev: .milliseconds(20))
        var sum: Int64 = 0
        for _ in 0..<20_000 {
            let sample = distribution.sample(&random)
            #expect(sample >= .zero)
            sum += sample.microseconds
        }
        // Clamping negatives at 0 pushes the mean above 10 ms; it stays well below 20 ms.
        let mean = Double(sum) / 20_000
        #expect(mean > 10_000 && mean < 20_000)
    }

    @Test("lognormal samples are positive with the given median", arguments: seeds)
    func lognormalMedian(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let distribution = LatencyDistribution.lognormal(median: .milliseconds(100), sigma: 0.5)
        var samples = (0..<10_001).map { _ in distribution.sample(&random).microseconds }
        samples.sort()
        #expect(samples.first! >= 0)
        let median = samples[5_000]
        #expect(median > 90_000 && median < 110_000)
    }

    @Test("pareto samples never fall below the scale", arguments: seeds)
    func paretoScale(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let distribution = LatencyDistribution.pareto(scale: .milliseconds(30), shape: 2)
        for _ in 0..<5_000 { #expect(distribution.sample(&random) >= .milliseconds(30)) }
    }

    @Test("a distribution's samples are the same for the same seed")
    func seedStable() {
        for distribution in [LatencyDistribution.uniform(min: .zero, max: .seconds(1)), .normal(mean: .seconds(1), stddev: .milliseconds(100)),
                             .lognormal(median: .milliseconds(80), sigma: 1), .pareto(scale: .milliseconds(5), shape: 1.5)] {
            var a = SeededRandom(seed: 77, stream: "link/A"), b = SeededRandom(seed: 77, stream: "link/A")
            #expect((0..<50).map { _ in distribution.sample(&a) } == (0..<50).map { _ in distribution.sample(&b) })
        }
    }
}
