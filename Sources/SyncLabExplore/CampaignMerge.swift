import SyncLabJSON

/// Reading `campaign.json` back and joining shards (`synclab fuzz merge`).
extension CampaignSummary {
    /// Parses a `campaign.json`; a message naming what is wrong otherwise.
    public static func parse(_ text: String) -> Result<CampaignSummary, CampaignMergeError> {
        guard let node = try? JSON5Reader.parse(text) else { return .failure(CampaignMergeError("not JSON")) }
        let root = JSON.tree(node)
        guard root["format"]?.text == "synclab-campaign/1", let profile = root["profile"]?.text,
              let policies = root["policies"]?.elements?.compactMap(\.text),
              let from = unsigned(root["seeds"]?["from"]), let to = unsigned(root["seeds"]?["to"]),
              let run = int(root["seedsRun"]), let withFindings = int(root["seedsWithFindings"]),
              let findings = root["findings"]?.elements, let coverage = root["coverage"] else {
            return .failure(CampaignMergeError("not a synclab-campaign/1 summary"))
        }
        var shard: Shard?
        if let text = root["shard"]?.text {
            guard let parsed = parseShard(text) else { return .failure(CampaignMergeError("bad shard \(text)")) }
            shard = parsed
        }
        var summary = CampaignSummary(profile: profile, policies: policies, find: root["find"]?.text, firstSeed: from, lastSeed: to, shard: shard)
        summary.seedsRun = run
        summary.seedsWithFindings = withFindings
        for finding in findings {
            guard let fingerprint = finding["fingerprint"]?.text, let kind = finding["kind"]?.text, let store = finding["store"]?.text,
                  let first = unsigned(finding["firstSeed"]), let seeds = int(finding["seeds"]), let options = finding["options"]?.text else {
                return .failure(CampaignMergeError("a finding lacks its fingerprint, kind, store, firstSeed, seeds or options"))
            }
            summary.findings.append(CampaignFinding(fingerprint: fingerprint, kind: kind, store: store, firstSeed: first, seeds: seeds, options: options))
        }
        for (index, hazard) in Coverage.hazards.enumerated() {
            guard let count = int(coverage[hazard]?["count"]), let seeds = int(coverage[hazard]?["seeds"]) else {
                return .failure(CampaignMergeError("coverage lacks \(hazard)"))
            }
            summary.coverage.counts[index] = count
            summary.seedsCovering.counts[index] = seeds
        }
        return .success(summary)
    }

    /// `I/N` with 0 ≤ I < N.
    public static func parseShard(_ text: String) -> Shard? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count > 0, index >= 0, index < count else { return nil }
        return Shard(index: index, count: count)
    }

    /// A campaign's policies as a merge error names them: `(none)` for a KVS campaign, which
    /// has none (the message read "policies  vs keepVersions,…").
    static func policyList(_ policies: [String]) -> String { policies.isEmpty ? "(none)" : policies.joined(separator: ",") }

    /// Joins the summaries of shards 0..N-1 of one campaign into the summary one unsharded run gives.
    public static func merge(_ shards: [CampaignSummary]) -> Result<CampaignSummary, CampaignMergeError> {
        guard let first = shards.first else { return .failure(CampaignMergeError("nothing to merge")) }
        for other in shards {
            // Say what differs: a user who ran one command per shard needs to know which part
            // of it did not match (a --time campaign stops each shard at a seed of its own).
            var differences: [String] = []
            if other.profile != first.profile { differences.append("profile \(first.profile) vs \(other.profile)") }
            if other.policies != first.policies { differences.append("policies \(policyList(first.policies)) vs \(policyList(other.policies))") }
            if other.find != first.find { differences.append("--find \(first.find ?? "(none)") vs \(other.find ?? "(none)")") }
            if other.firstSeed != first.firstSeed || other.lastSeed != first.lastSeed {
                differences.append("seeds \(first.firstSeed)..\(first.lastSeed) vs \(other.firstSeed)..\(other.lastSeed)")
            }
            guard differences.isEmpty else {
                let timeHint = differences.count == 1 && other.firstSeed == first.firstSeed && other.lastSeed != first.lastSeed
                    ? " (shards run with --time stop at seeds of their own and cannot be merged: give every shard the same --seeds or --count)" : ""
                return .failure(CampaignMergeError("the summaries are of different campaigns: \(differences.joined(separator: "; "))\(timeHint); "
                                                   + "profile, policies, --find and seeds must match"))
            }
        }
        let count = first.shard?.count ?? 1
        let indices = shards.map { $0.shard?.index ?? 0 }.sorted()
        guard shards.allSatisfy({ ($0.shard?.count ?? 1) == count }), indices == Array(0..<count) else {
            return .failure(CampaignMergeError("need each of the shards 0/\(count)…\(count - 1)/\(count) exactly once, got \(shards.map { $0.shard.map { "\($0.index)/\($0.count)" } ?? "unsharded" }.joined(separator: ", "))"))
        }
        var merged = CampaignSummary(profile: first.profile, policies: first.policies, find: first.find, firstSeed: first.firstSeed, lastSeed: first.lastSeed, shard: nil)
        for shard in shards {
            merged.seedsRun += shard.seedsRun
            merged.seedsWithFindings += shard.seedsWithFindings
            merged.coverage.add(shard.coverage)
            merged.seedsCovering.add(shard.seedsCovering)
            for finding in shard.findings {
                if let index = merged.findings.firstIndex(where: { $0.fingerprint == finding.fingerprint }) {
                    merged.findings[index].seeds += finding.seeds
                    if finding.firstSeed < merged.findings[index].firstSeed {
                        merged.findings[index].firstSeed = finding.firstSeed
                        merged.findings[index].options = finding.options
                    }
                } else {
                    merged.findings.append(finding)
                }
            }
        }
        merged.findings.sort { $0.fingerprint.utf8.lexicographicallyPrecedes($1.fingerprint.utf8) }
        return .success(merged)
    }

    private static func unsigned(_ value: JSON?) -> UInt64? {
        switch value {
        case .int(let number)?: return number >= 0 ? UInt64(number) : nil
        case .uint(let number)?: return number
        default: return nil
        }
    }

    private static func int(_ value: JSON?) -> Int? {
        if case .int(let number)? = value { return Int(number) }
        return nil
    }
}

/// Why shards could not be merged.
public struct CampaignMergeError: Error, Sendable {
    public var message: String
    init(_ message: String) { self.message = message }
}
