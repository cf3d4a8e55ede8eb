/// How often one hazard of SPEC §10 happened in a `FuzzCampaign` (`campaign.json`'s `coverage`).
public struct FuzzCoverage: Hashable, Sendable, CustomStringConvertible {
    /// `conflicts`, `serverRecordChanged`, `quotaViolations`, `crashesWithChangesPending`,
    /// `zoneDeletions`, `tokenExpiries`, `accountSwitches`, or one of the SPEC §5 inputs drawn
    /// since session 16: `appForegrounds`, `networkChanges`, `clockSets`, `cloudClockSets`,
    /// `subscriptions`, `publicRecordWrites`, `defaultZoneRecordWrites`, `otherTypeRecordSaves`,
    /// `longKeyRefusals` (`Coverage.hazards`).
    public var hazard: String
    /// How many times it happened over every seed.
    public var count: Int
    /// In how many seeds it happened at least once.
    public var seeds: Int

    /// `conflicts 12 (in 5 seeds)`.
    public var description: String { "\(hazard) \(count) (in \(seeds) seed\(seeds == 1 ? "" : "s"))" }
}
