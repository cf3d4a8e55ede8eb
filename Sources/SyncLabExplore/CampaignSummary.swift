import SyncLabJSON

/// `campaign.json` / `campaign.md`: what a campaign (or one shard of it) ran, found and exercised.
///
/// Everything here is a function of the seeds run, so two runs of one campaign are byte-identical
/// and `merge` of its shards equals the unsharded summary byte for byte. Wall-clock figures (runs
/// per second) live apart, in `timing.json`, which merge does not compare.
public struct CampaignSummary: Sendable, Equatable {
    public var profile: String
    public var policies: [String]
    /// `--find KIND`, or nil for promises.
    public var find: String?
    /// The seed range `--seeds`/`--count` named (inclusive).
    public var firstSeed: UInt64
    public var lastSeed: UInt64
    /// `I/N` for one shard; nil for a whole campaign (or a merge).
    public var shard: Shard?
    public var seedsRun = 0
    public var seedsWithFindings = 0
    /// Sorted by fingerprint (UTF-8 order).
    public var findings: [CampaignFinding] = []
    /// Total count of each hazard over all seeds.
    public var coverage = Coverage()
    /// Seeds in which each hazard happened at least once.
    public var seedsCovering = Coverage()

    /// One shard: seeds whose offset from the first seed is `index` modulo `count`.
    public struct Shard: Sendable, Equatable {
        public var index: Int
        public var count: Int
        public init(index: Int, count: Int) { self.index = index; self.count = count }
        public func contains(_ seed: UInt64, first: UInt64) -> Bool { (seed - first) % UInt64(count) == UInt64(index) }
    }

    public init(profile: String, policies: [String], find: String?, firstSeed: UInt64, lastSeed: UInt64, shard: Shard?) {
        self.profile = profile; self.policies = policies; self.find = find
        self.firstSeed = firstSeed; self.lastSeed = lastSeed; self.shard = shard
    }

    /// Folds one seed in; seeds must come in increasing order.
    public mutating func add(_ outcome: SeedOutcome) {
        seedsRun += 1
        if !outcome.findings.isEmpty { seedsWithFindings += 1 }
        coverage.add(outcome.coverage)
        for index in seedsCovering.counts.indices where outcome.coverage.counts[index] > 0 { seedsCovering.counts[index] += 1 }
        for finding in outcome.findings {
            if let index = findings.firstIndex(where: { $0.fingerprint == finding.fingerprint }) {
                findings[index].seeds += 1
            } else {
                findings.append(CampaignFinding(fingerprint: finding.fingerprint, kind: finding.kind, store: finding.store,
                                                firstSeed: outcome.seed, seeds: 1, options: outcome.choices.summary))
            }
        }
        findings.sort { $0.fingerprint.utf8.lexicographicallyPrecedes($1.fingerprint.utf8) }
    }

    // MARK: output

    public var json: JSON {
        var members: [(String, JSON)] = [
            ("format", .string("synclab-campaign/1")),
            ("profile", .string(profile)),
            ("policies", .array(policies.map(JSON.string))),
            ("find", find.map(JSON.string) ?? .null),
            ("seeds", .object([("from", .uint(firstSeed)), ("to", .uint(lastSeed))])),
        ]
        if let shard { members.append(("shard", .string("\(shard.index)/\(shard.count)"))) }
        members += [
            ("seedsRun", .int(Int64(seedsRun))),
            ("seedsWithFindings", .int(Int64(seedsWithFindings))),
            ("findings", .array(findings.map { finding in
                .object([("fingerprint", .string(finding.fingerprint)), ("kind", .string(finding.kind)), ("store", .string(finding.store)),
                         ("firstSeed", .uint(finding.firstSeed)), ("seeds", .int(Int64(finding.seeds))), ("options", .string(finding.options))])
            })),
            ("coverage", .object(Coverage.hazards.indices.map { index in
                (Coverage.hazards[index], .object([("count", .int(Int64(coverage.counts[index]))), ("seeds", .int(Int64(seedsCovering.counts[index])))]))
            })),
        ]
        return .object(members)
    }

    public var markdown: String {
        var lines = ["# synclab fuzz campaign", ""]
        // A KVS campaign has no policy: "(none)", as `fuzz merge` names it, not an empty list.
        let policyText = policies.isEmpty ? "(none)" : policies.map { "`\($0)`" }.joined(separator: ", ")
        lines.append("- profile: `\(profile)`; policies: \(policyText)"
                     + (find.map { "; looking for `\($0)`" } ?? "; findings are broken promises (docs/FUZZING.md)"))
        lines.append("- seeds \(firstSeed)..\(lastSeed)" + (shard.map { ", shard \($0.index)/\($0.count)" } ?? "") + ": \(seedsRun) run, \(seedsWithFindings) with findings")
        lines.append("- runs per second: see `timing.json` (wall-clock figures are kept out of this file)")
        lines += ["", "## Findings", ""]
        if findings.isEmpty { lines.append("None.") } else {
            lines += ["| fingerprint | seeds | first seed | first seed's options |", "|---|---:|---:|---|"]
            for finding in findings {
                lines.append("| `\(finding.fingerprint)` | \(finding.seeds) | \(finding.firstSeed) | \(finding.options) |")
            }
            lines += ["", "Each is in `findings/<fingerprint>/`: `original.json`, `minimal.json` and the minimal run's reports."]
        }
        lines += ["", "## Coverage: hazards that happened", "", "| hazard | count | seeds |", "|---|---:|---:|"]
        for index in Coverage.hazards.indices {
            lines.append("| \(Coverage.hazards[index]) | \(coverage.counts[index]) | \(seedsCovering.counts[index]) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
