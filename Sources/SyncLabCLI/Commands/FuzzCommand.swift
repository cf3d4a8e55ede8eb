import Foundation
import SyncLabExplore
import SyncLabJSON
import SyncLabReports

/// `synclab fuzz` (SPEC §10): generated scenarios, promises, fingerprints, shrinking, campaigns.
enum FuzzCommand {
    static let usage = """
    usage: synclab fuzz [--profile kvs|documents|records|mixed] [--seeds A..B | --count N] [--time DURATION]
                        [--jobs N] [--shard I/N] [--policy NAME]… [--find KIND] [--out DIR]
           synclab fuzz merge DIR… --out DIR

    Runs generated scenarios (seed S of a profile always gives the same scenario), each with its
    own devices (2-8), traffic and subset of fault kinds. A finding is a broken promise of the
    policies (docs/FUZZING.md), a failed run, or a divergence after the heal; with --find KIND,
    any anomaly of that kind. Findings are grouped by fingerprint; the first seed of each is
    shrunk into OUT/findings/<fingerprint>/ (original.json, minimal.json, the minimal run's reports).
      --profile P       kvs, documents, records or mixed (default mixed)
      --seeds A..B      the seeds to run (inclusive); --count N means 1..N (default --count 100)
      --time DURATION   stop starting seeds after this long (e.g. 10m); the summary names the last seed run
      --jobs N          seeds run in parallel (default: the core count); output is ordered by seed
      --shard I/N       run only the seeds whose offset from the first is I modulo N
      --policy NAME     lastWriterWins, keepVersions, keepBoth, merge, serverWins, clientWins
                        (repeatable; default the lossless ones: keepVersions, keepBoth, merge)
      --find KIND       collect examples of one anomaly kind instead of broken promises
      --out DIR         where campaign.json, campaign.md, timing.json and findings/ go (default fuzz-out)
    merge joins the output folders of shards 0/N…N-1/N into the summary of one unsharded run,
    byte for byte, and copies each fingerprint's folder from the shard that found it first.
    Exit status: 0 no finding, 1 findings, 2 bad input or usage.
    """

    static func main(_ arguments: [String]) -> ExitStatus {
        if arguments.first == "merge" { return FuzzMergeCommand.main(Array(arguments.dropFirst())) }
        // --policy repeats; the shared parser keeps one value per option, so collect them first.
        var policyNames: [String] = []
        var rest: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--policy", index + 1 < arguments.count { policyNames.append(arguments[index + 1]); index += 2; continue }
            if argument.hasPrefix("--policy=") { policyNames.append(String(argument.dropFirst("--policy=".count))); index += 1; continue }
            rest.append(argument); index += 1
        }
        let parsed: Arguments
        do {
            parsed = try Arguments(rest, valued: ["--profile", "--seeds", "--count", "--time", "--jobs", "--shard", "--find", "--out", "--policy"], flags: ["--help", "--host-records-policies"])
        } catch {
            Console.error("synclab fuzz: \(error.message)\n\(usage)"); return .badInput
        }
        if parsed.has("--help") { Console.out(usage); return .success }
        switch FuzzOptions.parse(parsed, policyNames: policyNames) {
        case .failure(let error): Console.error("synclab fuzz: \(error.message)"); return .badInput
        case .success(let options): return FuzzCampaign(options: options).run()
        }
    }
}
