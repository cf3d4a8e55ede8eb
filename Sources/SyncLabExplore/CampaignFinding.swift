/// One fingerprint's line in a campaign summary.
public struct CampaignFinding: Sendable, Equatable {
    public var fingerprint: String
    public var kind: String
    public var store: String
    /// The lowest seed that showed it (the one shrunk).
    public var firstSeed: UInt64
    /// How many seeds showed it.
    public var seeds: Int
    /// What the first seed chose (`GeneratorChoices.summary`).
    public var options: String
}
