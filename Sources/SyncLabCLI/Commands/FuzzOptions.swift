import SyncLabExplore

/// `synclab fuzz`'s options, checked.
struct FuzzOptions {
    var profile: FuzzProfile = .mixed
    var firstSeed: UInt64 = 1
    var lastSeed: UInt64 = 100
    var timeLimit_s: Double?
    var jobs = Terminal.cores
    var shard: CampaignSummary.Shard?
    var policies = FuzzPolicies.lossless
    var rule = FindingRule.promises
    var out = "fuzz-out"
    /// `--host-records-policies` (undocumented in the usage: a comparison aid, docs/LIBRARY.md).
    var hostRecordsPolicies = false

    static func parse(_ parsed: Arguments, policyNames: [String]) -> Result<FuzzOptions, UsageError> {
        var options = FuzzOptions()
        if !parsed.positional.isEmpty { return .failure(UsageError("unexpected argument \(parsed.positional[0])")) }
        options.hostRecordsPolicies = parsed.has("--host-records-policies")
        if let text = parsed.value("--profile") {
            guard let profile = FuzzProfile(rawValue: text) else { return .failure(UsageError("--profile takes kvs, documents, records or mixed, got \(text)")) }
            options.profile = profile
        }
        if parsed.value("--seeds") != nil && parsed.value("--count") != nil { return .failure(UsageError("give --seeds or --count, not both")) }
        if let text = parsed.value("--seeds") {
            let parts = text.components(separatedBy: "..")
            guard parts.count == 2, let first = UInt64(parts[0]), let last = UInt64(parts[1]), first <= last else {
                return .failure(UsageError("--seeds takes A..B with A ≤ B (unsigned integers), got \(text)"))
            }
            options.firstSeed = first; options.lastSeed = last
        } else if let text = parsed.value("--count") {
            guard let count = UInt64(text), count > 0 else { return .failure(UsageError("--count takes a positive integer, got \(text)")) }
            options.lastSeed = count
        } else if parsed.value("--time") != nil {
            options.lastSeed = UInt64.max
        }
        if let text = parsed.value("--time") {
            guard let (sign, milliseconds) = Milliseconds.parse(text), sign.isEmpty, milliseconds > 0 else {
                return .failure(UsageError("--time takes a duration like 90s or 10m, got \(text)"))
            }
            options.timeLimit_s = Double(milliseconds) / 1000
        }
        if let text = parsed.value("--jobs") {
            guard let jobs = Int(text), jobs > 0 else { return .failure(UsageError("--jobs takes a positive integer, got \(text)")) }
            options.jobs = jobs
        }
        if let text = parsed.value("--shard") {
            guard let shard = CampaignSummary.parseShard(text) else { return .failure(UsageError("--shard takes I/N with 0 ≤ I < N, got \(text)")) }
            options.shard = shard
        }
        switch FuzzPolicies.parse(policyNames) {
        case .success(let policies): options.policies = policies
        case .failure(let error): return .failure(UsageError("unknown --policy \(error.name) (one of \(FuzzPolicies.names.joined(separator: ", ")))"))
        }
        for name in policyNames where !FuzzPolicies.applies(name, to: options.profile) {
            let usable = FuzzPolicies.names(for: options.profile)
            return .failure(UsageError(usable.isEmpty
                ? "--profile \(options.profile.rawValue) has no conflict policy to choose (the key-value store is last-writer-wins by timestamp): drop --policy \(name)"
                : "--policy \(name) is not a policy of --profile \(options.profile.rawValue), whose seeds would never run it (its policies: \(usable.joined(separator: ", ")))"))
        }
        if let kind = parsed.value("--find") {
            guard FindingRule.kinds.contains(kind) else { return .failure(UsageError("unknown --find kind \(kind) (one of \(FindingRule.kinds.joined(separator: ", ")))")) }
            options.rule = .find(kind)
        }
        if let out = parsed.value("--out") { options.out = out }
        return .success(options)
    }
}
