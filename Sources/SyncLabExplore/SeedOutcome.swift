/// What one seed of a campaign gave: its findings' fingerprints and what it exercised.
public struct SeedOutcome: Sendable {
    public var seed: UInt64
    public var choices: GeneratorChoices
    /// One per fingerprint, in the run's order.
    public var findings: [Finding]
    public var coverage: Coverage
    /// Set when the generated scenario did not validate (a generator bug: itself a finding).
    public var invalid: String?
}
