import SyncLabJSON
import SyncLabKernel
import SyncLabProtocol

/// `network`, `engine` and `limits` (SPEC §5): each read as a set of overrides applied on top of
/// what is already there, so a variant's sections apply over the base's exactly as a deep merge
/// of the JSON objects would, and every error is reported once, under the path where it is written.
extension ScenarioReader {
    static let linkKeys = ["latency", "loss", "bandwidth", "pushLatency", "pushLoss", "reorder", "timeout"]

    /// A link override: scenario `network` defaults, a variant's, a device's, or `network.set`.
    ///
    /// `timeout` (the request timeout, default 30 s) is an extension of SPEC §5.
    /// `latency` and `pushLatency` replace the whole value: a distribution is never merged field by field.
    func linkOverride(_ node: JSONNode, _ path: JSONPath, what: String = "network settings") -> LinkOverride {
        var result = LinkOverride()
        guard let members = members(node, path, allowed: ScenarioReader.linkKeys, what: what, example: ShapeExample.link) else { return result }
        for member in members {
            let valuePath = path.key(member.key)
            switch member.key {
            case "latency": result.latency = latency(member.value, valuePath)
            case "loss": result.loss = probability(member.value, valuePath)
            case "bandwidth": result.bandwidthBitsPerSecond = bandwidth(member.value, valuePath)
            case "pushLatency": result.pushLatency = latency(member.value, valuePath)
            case "pushLoss": result.pushLoss = probability(member.value, valuePath)
            case "reorder": result.reorder = bool(member.value, valuePath)
            case "timeout": result.requestTimeout = duration(member.value, valuePath, .positive, what: "a request timeout")
            default: break
            }
        }
        return result
    }

    /// A fixed latency (`"50ms"`) or a distribution object (SPEC §3.3).
    func latency(_ node: JSONNode, _ path: JSONPath) -> LatencyDistribution? {
        guard node.members != nil else {
            if case .string = node.value { return duration(node, path, .nonNegative, what: "a latency").map { .fixed($0) } }
            if case .integer = node.value { return duration(node, path, .nonNegative, what: "a latency").map { .fixed($0) } }
            report("expected a latency: a duration like \"50ms\", or {\"dist\": \"uniform\", \"min\": …, \"max\": …} (or normal, lognormal, pareto), got \(node.value.shortDescription)", at: node.position, path: path)
            return nil
        }
        let kinds = ScenarioKeys.latencyDistributions.map(\.dist)
        guard let dist = node["dist"] else {
            _ = members(node, path, allowed: ["dist"] + ScenarioKeys.latencyDistributions.flatMap(\.parameters), what: "a latency distribution")
            report("missing required key 'dist' in a latency distribution (one of \"uniform\", \"normal\", \"lognormal\", \"pareto\"), such as \(ShapeExample.latency)", at: node.position, path: path.key("dist"))
            return nil
        }
        guard case .string(let kind) = dist.value, kinds.contains(kind) else {
            let hint: String
            if case .string(let text) = dist.value { hint = Suggestion.hint(for: text, in: kinds) } else { hint = "" }
            report("expected a distribution: one of \"uniform\", \"normal\", \"lognormal\", \"pareto\", got \(dist.value.shortDescription)\(hint)", at: dist.position, path: path.key("dist"))
            return nil
        }
        let names = ScenarioKeys.latencyParameters(kind)
        guard let members = members(node, path, allowed: ["dist"] + names, what: "a \(kind) latency distribution") else { return nil }
        let what = "a \(kind) latency distribution"
        let first = required(members, names[0], in: node, path, what: what)
        let second = required(members, names[1], in: node, path, what: what)
        guard let first, let second else { return nil }
        switch kind {
        case "uniform":
            guard let low = duration(first, path.key("min"), .nonNegative), let high = duration(second, path.key("max"), .nonNegative) else { return nil }
            guard low <= high else {
                report("'min' (\(low)) is greater than 'max' (\(high))", at: second.position, path: path.key("max"))
                return nil
            }
            return .uniform(min: low, max: high)
        case "normal":
            guard let mean = duration(first, path.key("mean"), .nonNegative), let deviation = duration(second, path.key("stddev"), .nonNegative) else { return nil }
            return .normal(mean: mean, stddev: deviation)
        case "lognormal":
            let median = duration(first, path.key("median"), .nonNegative)
            let sigma = number(second, path.key("sigma"), what: "a number (sigma, unitless)")
            guard let median, let sigma else { return nil }
            guard sigma >= 0 else {
                report("sigma can't be negative, got \(second.value.shortDescription)", at: second.position, path: path.key("sigma"))
                return nil
            }
            return .lognormal(median: median, sigma: sigma)
        default:
            let scale = duration(first, path.key("scale"), .nonNegative)
            let shape = number(second, path.key("shape"), what: "a number (shape, unitless)")
            guard let scale, let shape else { return nil }
            guard shape > 0 else {
                report("shape must be more than zero, got \(second.value.shortDescription)", at: second.position, path: path.key("shape"))
                return nil
            }
            return .pareto(scale: scale, shape: shape)
        }
    }

    /// Applies an `engine` section over `settings`.
    func applyEngine(_ node: JSONNode, _ path: JSONPath, to settings: inout EngineSettings) {
        // A store's setting written one level too high (`"engine": {"conflict": "merge"}`) says where it goes.
        let misplaced: (String) -> String? = { key in
            let sections = ScenarioKeys.engine.filter { $0.keys.contains(key) }.map(\.section)
            guard !sections.isEmpty else { return nil }
            return "; '\(key)' belongs to a store: " + sections.map { "{\"\($0)\": {\"\(key)\": …}}" }.joined(separator: " or ")
        }
        guard let members = members(node, path, allowed: ScenarioKeys.engine.map(\.section), what: "engine settings", example: ShapeExample.engine, hint: misplaced) else { return }
        for member in members {
            let sectionPath = path.key(member.key)
            let section = member.value
            // `"documents": "merge"`: the example puts the value where it belongs.
            let firstKey = ScenarioKeys.engineKeys(member.key).first ?? ""
            let shown: String
            if case .string(let text) = section.value { shown = "\"\(text)\"" } else { shown = member.key == "kvs" ? "\"5s\"" : "\"merge\"" }
            let example = "{\"\(firstKey)\": \(shown)}"
            switch member.key {
            case "kvs":
                guard let fields = self.members(section, sectionPath, allowed: ScenarioKeys.engineKeys("kvs"), what: "KVS engine settings", example: example) else { continue }
                for field in fields {
                    switch field.key {
                    case "uploadDelay":
                        if let value = duration(field.value, sectionPath.key(field.key), .nonNegative, what: "an upload delay") { settings.kvs.uploadDelay = value }
                    case "timestampSource":
                        if let value = choice(field.value, sectionPath.key(field.key), TimestampSource.self) { settings.kvs.timestampSource = value }
                    default: break
                    }
                }
            case "documents":
                guard let fields = self.members(section, sectionPath, allowed: ScenarioKeys.engineKeys("documents"), what: "document engine settings", example: example) else { continue }
                for field in fields {
                    switch field.key {
                    case "conflict":
                        if let value = choice(field.value, sectionPath.key(field.key), DocumentConflictPolicy.self) { settings.documents.conflict = value }
                    case "winner":
                        if let value = choice(field.value, sectionPath.key(field.key), DocumentWinner.self) { settings.documents.winner = value }
                    default: break
                    }
                }
            case "records":
                guard let fields = self.members(section, sectionPath, allowed: ScenarioKeys.engineKeys("records"), what: "record engine settings", example: example) else { continue }
                for field in fields {
                    switch field.key {
                    case "conflict":
                        if let value = choice(field.value, sectionPath.key(field.key), RecordConflictPolicy.self) { settings.records.conflict = value }
                    case "savePolicy":
                        if let value = choice(field.value, sectionPath.key(field.key), SavePolicy.self) { settings.records.savePolicy = value }
                    default: break
                    }
                }
            default:
                break
            }
        }
    }

    /// Applies a `limits` section over `limits`. Sizes take units; `keys` and `batch` are counts.
    func applyLimits(_ node: JSONNode, _ path: JSONPath, to limits: inout Limits) {
        // A KVS or record limit written one level too high (`"limits": {"keys": 10}`) says where it goes.
        let misplaced: (String) -> String? = { key in
            if ScenarioKeys.kvsLimits.contains(key) { return "; '\(key)' is a KVS limit: {\"kvs\": {\"\(key)\": …}}" }
            if ScenarioKeys.recordLimits.contains(key) { return "; '\(key)' is a record limit: {\"records\": {\"\(key)\": …}}" }
            return nil
        }
        guard let members = members(node, path, allowed: ScenarioKeys.limits, what: "limits", example: ShapeExample.limits, hint: misplaced) else { return }
        for member in members {
            let sectionPath = path.key(member.key)
            switch member.key {
            case "storage":
                if let value = size(member.value, sectionPath, what: "a storage quota") { limits.storageBytes = value }
            case "kvs":
                guard let fields = self.members(member.value, sectionPath, allowed: ScenarioKeys.kvsLimits, what: "KVS limits", example: #"{"keys": 10, "totalBytes": "1KB"}"#) else { continue }
                for field in fields {
                    let fieldPath = sectionPath.key(field.key)
                    switch field.key {
                    case "keyBytes": if let value = intSize(field.value, fieldPath) { limits.kvs.keyBytes = value }
                    case "keys": if let value = int(field.value, fieldPath, minimum: 0, what: "a number of keys") { limits.kvs.keys = value }
                    case "totalBytes": if let value = intSize(field.value, fieldPath) { limits.kvs.totalBytes = value }
                    case "valueBytes": if let value = intSize(field.value, fieldPath) { limits.kvs.valueBytes = value }
                    default: break
                    }
                }
            case "records":
                guard let fields = self.members(member.value, sectionPath, allowed: ScenarioKeys.recordLimits, what: "record limits", example: #"{"batch": 400}"#) else { continue }
                for field in fields {
                    let fieldPath = sectionPath.key(field.key)
                    switch field.key {
                    case "batch": if let value = int(field.value, fieldPath, minimum: 1, what: "a batch size (items per request)") { limits.records.batch = value }
                    case "requestBytes": if let value = intSize(field.value, fieldPath) { limits.records.requestBytes = value }
                    case "recordBytes": if let value = intSize(field.value, fieldPath) { limits.records.recordBytes = value }
                    case "assetBytes": if let value = size(field.value, fieldPath) { limits.records.assetBytes = value }
                    default: break
                    }
                }
            default:
                break
            }
        }
    }

    /// A size that must fit in `Int`.
    private func intSize(_ node: JSONNode, _ path: JSONPath) -> Int? {
        guard let value = size(node, path) else { return nil }
        guard let result = Int(exactly: value) else {
            report("size is too large", at: node.position, path: path)
            return nil
        }
        return result
    }
}
