import Foundation

/// How a link's one-way latency is drawn (SPEC §3.3). Samples are clamped at 0.
public enum LatencyDistribution: Hashable, Sendable {
    /// Always this duration.
    case fixed(SimDuration)
    /// Uniform in [`min`, `max`].
    case uniform(min: SimDuration, max: SimDuration)
    /// Normal with `mean` and standard deviation `stddev` (Box–Muller), clamped at 0.
    case normal(mean: SimDuration, stddev: SimDuration)
    /// Log-normal: `median × e^(sigma·Z)` with Z standard normal; `sigma` is unitless.
    case lognormal(median: SimDuration, sigma: Double)
    /// Pareto (heavy tail): `scale / U^(1/shape)`, U uniform in (0, 1]; always ≥ `scale`.
    case pareto(scale: SimDuration, shape: Double)

    /// Draws one latency. A `.fixed` latency draws no randomness.
    public func sample(_ random: inout SeededRandom) -> SimDuration {
        let micros: Double
        switch self {
        case .fixed(let value):
            return SimDuration(microseconds: max(0, value.microseconds))
        case .uniform(let low, let high):
            let span = Double(high.microseconds - low.microseconds)
            micros = Double(low.microseconds) + span * random.nextUnit()
        case .normal(let mean, let stddev):
            micros = Double(mean.microseconds) + Double(stddev.microseconds) * LatencyDistribution.standardNormal(&random)
        case .lognormal(let median, let sigma):
            micros = Double(median.microseconds) * exp(sigma * LatencyDistribution.standardNormal(&random))
        case .pareto(let scale, let shape):
            let u = 1.0 - random.nextUnit() // (0, 1]
            micros = Double(scale.microseconds) / pow(u, 1.0 / max(shape, 1e-9))
        }
        guard micros.isFinite else { return SimDuration(microseconds: Int64.max / 4) }
        return SimDuration(microseconds: Int64(max(0, min(micros.rounded(), Double(Int64.max / 4)))))
    }

    /// One standard normal draw (Box–Muller; uses two uniforms, discards the second).
    static func standardNormal(_ random: inout SeededRandom) -> Double {
        let u1 = max(random.nextUnit(), 0x1.0p-53)
        let u2 = random.nextUnit()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }
}
