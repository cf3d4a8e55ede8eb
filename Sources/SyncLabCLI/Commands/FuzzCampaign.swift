import Foundation
import SyncLabExplore
import SyncLabJSON
import SyncLabReports

/// One `synclab fuzz` campaign: run the seeds, fold them in seed order, shrink each fingerprint's
/// first seed, write the summary.
struct FuzzCampaign {
    let options: FuzzOptions

    func run() -> ExitStatus {
        // The output folder is checked (and made) before any seed runs: a bad --out is a usage
        // error at once, not after the whole campaign (whose findings would then go nowhere).
        do { try ScenarioFiles.checkOutputs(folders: [options.out], junit: nil) } catch {
            Console.error("synclab fuzz: \(error.message)"); return .badInput
        }
        var builtIn = FuzzHost.builtIn
        builtIn.hostRecordsPolicies = options.hostRecordsPolicies
        let host = builtIn
        let runner = SeedRunner(profile: options.profile, policies: options.policies, rule: options.rule, host: host)
        var summary = CampaignSummary(profile: options.profile.rawValue, policies: options.policies.names(for: options.profile), find: findKind,
                                      firstSeed: options.firstSeed, lastSeed: options.lastSeed, shard: options.shard)
        let started = Date() // wall clock ok: the CLI times the campaign, never the simulation
        let interactive = Terminal.isInteractive
        var cursor: UInt64? = options.firstSeed
        var lastRun = options.firstSeed
        var invalid: [(UInt64, String)] = []
        let total = options.timeLimit_s == nil ? seedCount : nil
        while let from = cursor {
            // Bounded batches, --time or not: memory holds one batch's outcomes, whatever the
            // range (a campaign over --seeds 1..100000000 used to build every seed and every
            // outcome at once). Outcomes fold in seed order either way, so output is unchanged.
            let (seeds, next) = batch(from: from, limit: options.jobs * (options.timeLimit_s == nil ? 256 : 16))
            cursor = next
            if seeds.isEmpty { break }
            let doneBefore = summary.seedsRun
            let outcomes = ParallelSeeds.map(count: seeds.count, jobs: options.jobs, { runner.run(seeds[$0]) }, progress: { done in
                let count = doneBefore + done
                if interactive {
                    FileHandle.standardError.write(Data("\r\(count)\(total.map { "/\($0)" } ?? "") seed\((total ?? UInt64(count)) == 1 ? "" : "s")".utf8))
                } else if count % 500 == 0 {
                    Console.error("\(Counted.text(count, "seed")) run")
                }
            })
            for outcome in outcomes {
                summary.add(outcome)
                if let message = outcome.invalid { invalid.append((outcome.seed, message)) }
            }
            lastRun = seeds[seeds.count - 1]
            if let limit = options.timeLimit_s, Date().timeIntervalSince(started) >= limit { break } // wall clock ok: the CLI times the campaign, never the simulation
        }
        if interactive { FileHandle.standardError.write(Data("\r".utf8)) }
        if options.timeLimit_s != nil { summary.lastSeed = lastRun }
        let searchSeconds = Date().timeIntervalSince(started) // wall clock ok: the CLI times the campaign, never the simulation
        for (seed, message) in invalid { Console.error("seed \(seed): the generated scenario is invalid (a generator bug): \(message)") }

        // Shrink each fingerprint's first seed (in parallel; written in fingerprint order).
        let findings = summary.findings
        let target = options.rule
        let out = options.out
        let shrinkStarted = Date() // wall clock ok: the CLI times the campaign, never the simulation
        let written = ParallelSeeds.map(count: findings.count, jobs: options.jobs, { index -> FindingWriter.Written? in
            let finding = findings[index]
            let generated = runner.generate(finding.firstSeed)
            return try? FindingWriter.shrinkAndWrite(generated.json, originalText: generated.text, target: .fingerprint(finding.fingerprint, target),
                                                     origin: "synclab fuzz --profile \(generated.choices.profile.rawValue) seed \(finding.firstSeed)",
                                                     folder: "\(out)/findings/\(finding.fingerprint)", host: host)
        })
        let shrinkSeconds = Date().timeIntervalSince(shrinkStarted) // wall clock ok: the CLI times the campaign, never the simulation
        for (finding, result) in zip(findings, written) {
            Console.out("finding \(finding.fingerprint): \(finding.seeds) seed(s), first seed \(finding.firstSeed) (\(finding.options))")
            if let result {
                Console.out("  shrunk from \(result.before.summary) to \(result.after.summary) (\(result.runs) runs, \(String(format: "%.1f", result.seconds)) s)")
                let minimal = "\(out)/findings/\(finding.fingerprint)/minimal.json"
                for line in FindingWriter.minimalLines(minimal, reproduces: result.reproduces, hostRecordsPolicies: options.hostRecordsPolicies) { Console.out(line) }
            } else {
                Console.out("  (could not be shrunk or written)")
            }
        }
        do {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            try ReportWriter.write(summary.json.renderedPretty(), to: out + "/campaign.json")
            try ReportWriter.write(summary.markdown, to: out + "/campaign.md")
            let perSecond = searchSeconds > 0 ? Double(summary.seedsRun) / searchSeconds : 0
            let timing = JSON.object([("note", .string("wall-clock figures: differ run to run; not part of campaign.json, not compared by merge")),
                                      ("seedsRun", .int(Int64(summary.seedsRun))), ("jobs", .int(Int64(options.jobs))),
                                      ("searchSeconds", .double((searchSeconds * 1000).rounded() / 1000)),
                                      ("runsPerSecond", .double((perSecond * 10).rounded() / 10)),
                                      ("shrinkSeconds", .double((shrinkSeconds * 1000).rounded() / 1000))])
            try ReportWriter.write(timing.renderedPretty(), to: out + "/timing.json")
            Console.out("\(Counted.text(summary.seedsRun, "seed")) (\(options.firstSeed)..\(summary.lastSeed)\(options.shard.map { ", shard \($0.index)/\($0.count)" } ?? "")), "
                        + "\(findings.count) fingerprint(s) in \(summary.seedsWithFindings) seed(s); \(String(format: "%.1f", perSecond)) runs/s on \(options.jobs) job(s)")
            Console.out("coverage: " + Coverage.hazards.indices.map { "\(Coverage.hazards[$0]) \(summary.coverage.counts[$0])" }.joined(separator: ", "))
            Console.out("summary: \(out)/campaign.md")
        } catch {
            Console.error("synclab fuzz: cannot write \(out): \(ScenarioFiles.reason(error))"); return .badInput
        }
        return findings.isEmpty ? .success : .failed
    }

    var findKind: String? {
        if case .find(let kind) = options.rule { return kind }
        return nil
    }

    /// How many seeds this shard runs, for the progress line; nil when it is 2^64 (`--seeds
    /// 0..18446744073709551615`, which used to trap on the count's overflow).
    var seedCount: UInt64? {
        let span = options.lastSeed - options.firstSeed
        guard let shard = options.shard else { return span == .max ? nil : span + 1 }
        let count = UInt64(shard.count), index = UInt64(shard.index)
        guard span >= index else { return 0 }
        let steps = (span - index) / count
        return steps == .max ? nil : steps + 1
    }

    /// Up to `limit` seeds of this shard from `from` on, and where the next batch starts (nil: done).
    func batch(from: UInt64, limit: Int) -> ([UInt64], UInt64?) {
        var seeds: [UInt64] = []
        var seed = from
        if let shard = options.shard {
            // Move to this shard's first seed at or after `from`.
            let offset = (seed - options.firstSeed) % UInt64(shard.count)
            let step = (UInt64(shard.index) + UInt64(shard.count) - offset) % UInt64(shard.count)
            guard options.lastSeed - seed >= step else { return ([], nil) }
            seed += step
        }
        let stride = UInt64(options.shard?.count ?? 1)
        while seeds.count < limit {
            seeds.append(seed)
            guard options.lastSeed - seed >= stride else { return (seeds, nil) }
            seed += stride
        }
        return (seeds, seed)
    }
}
