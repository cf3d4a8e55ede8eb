/// What a `FuzzCampaign` found: one `FuzzFinding` per fingerprint, in the order their first
/// seeds came.
public struct FuzzResult: Sendable {
    /// How many seeds ran.
    public var seedsRun: Int
    /// The broken promises (or, under `find`, the examples), one per fingerprint.
    public var findings: [FuzzFinding]
    /// Where the findings' files were written.
    public var outputFolder: String
    /// How often each hazard of SPEC §10 actually happened over the seeds (conflicts,
    /// `serverRecordChanged`, quota violations, crashes with changes pending, zone deletions,
    /// token expiries, account switches), in that order: what the search exercised. A hazard
    /// at 0 was never tested, whatever the findings say.
    public var coverage: [FuzzCoverage]
    /// `campaign.md` in `outputFolder` (beside `campaign.json`), as `synclab fuzz` writes
    /// them; nil if they could not be written.
    public var summaryFile: String?

    /// The coverage of `hazard` (`"conflicts"`, `"serverRecordChanged"`…), nil for an unknown name.
    public func coverage(of hazard: String) -> FuzzCoverage? { coverage.first { $0.hazard == hazard } }
}

/// One fingerprint a campaign found (SPEC §10): the seeds that showed it, and the minimal
/// scenario file its first seed shrank to.
public struct FuzzFinding: Sendable, CustomStringConvertible {
    /// Anomaly kind, store, policy, and the shape of what was lost and what replaced it.
    public var fingerprint: String
    /// The first seed that showed it: the one shrunk.
    public var firstSeed: UInt64
    /// Every seed that showed it, in order.
    public var seeds: [UInt64]
    /// The checker's explanation of the first seed's anomaly.
    public var explanation: String
    /// `minimal.json`: a plain scenario file naming the campaign's apps; its expectations fail
    /// while the bug is there. Run it with `Scenario(contentsOfFile:apps:)` and the same
    /// registry, or through the team's own command line executable.
    public var minimalScenario: String
    /// `original.json`: the generated scenario of the first seed.
    public var originalScenario: String
    /// The folder of the minimal run's reports (timeline.html, report.md), nil if they could
    /// not be written.
    public var reports: String?
    /// Devices, steps (repeats expanded) and simulation events of the generated scenario's
    /// run, before shrinking: the sizes `synclab fuzz` prints.
    public var originalSize: (devices: Int, steps: Int, events: Int)
    /// Devices, steps and events of `minimal.json`'s run.
    public var minimalSize: (devices: Int, steps: Int, events: Int)
    /// The command that runs `minimal.json` (through the team's executable when it names the
    /// team's apps: `AppRegistry.program`, or the placeholder to replace), nil if it could not
    /// be written.
    public var replayCommand: String? = nil

    /// One paragraph: fingerprint, seeds, explanation, sizes and files.
    public var description: String {
        var text = "fuzz finding \(fingerprint): first seed \(firstSeed) (\(seeds.count) seed\(seeds.count == 1 ? "" : "s"))\n\(explanation)\n"
        text += "shrunk from \(originalSize.devices) devices, \(originalSize.steps) steps, \(originalSize.events) events "
            + "to \(minimalSize.devices) devices, \(minimalSize.steps) steps, \(minimalSize.events) events\n"
        text += "minimal scenario: \(minimalScenario)"
        if let replayCommand { text += "\nreplay: \(replayCommand)" }
        if let reports { text += "\nreports: \(reports)" }
        return text
    }
}
