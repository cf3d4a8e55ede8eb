/// The keys a scenario file may use inside each of its sections, beyond the lists the readers
/// already keep beside their code (`ScenarioResolver.topLevelKeys`, `ScenarioReader.linkKeys`,
/// `StepResolver.ops`, `ExpectationResolver.keys`).
///
/// The readers validate against these lists, and the tests hold `docs/SCENARIOS.md` and
/// `docs/synclab.schema.json` to them, so a key added here without documenting it fails a test.
enum ScenarioKeys {
    /// A device: `devices[i]`.
    static let device = ["id", "account", "clock", "network", "online", "apps"]
    /// A device's `clock`.
    static let clock = ["offset", "driftPpm"]
    /// Each latency distribution and its two parameters, in the order they are documented.
    static let latencyDistributions: [(dist: String, parameters: [String])] = [
        ("uniform", ["min", "max"]), ("normal", ["mean", "stddev"]), ("lognormal", ["median", "sigma"]), ("pareto", ["scale", "shape"]),
    ]
    /// `engine`: each store's section and its keys.
    static let engine: [(section: String, keys: [String])] = [
        ("kvs", ["uploadDelay", "timestampSource"]), ("documents", ["conflict", "winner"]), ("records", ["conflict", "savePolicy"]),
    ]
    /// `limits`: `storage` is a size; `kvs` and `records` are sections with these keys.
    static let limits = ["kvs", "storage", "records"]
    static let kvsLimits = ["keyBytes", "keys", "totalBytes", "valueBytes"]
    static let recordLimits = ["batch", "requestBytes", "recordBytes", "assetBytes"]
    /// `end`.
    static let end = ["heal", "settle", "maxEvents", "at"]
    /// An entry of `variants`.
    static let variant = ["name", "description", "engine", "apps", "network", "limits", "expect"]
    /// An entry of `expect.anomalies` or `expect.noAnomalies`.
    static let anomalyPattern = ["kind", "store", "item", "device"]
    /// An entry of `expect.notifications`.
    static let notification = ["device", "reason", "min", "max"]
    /// `assert` steps and `expect.final`: the three stores' item maps.
    static let itemSections = ["kvs", "documents", "records"]
    /// An entry of `records.saveAtomic`'s `records`.
    static let atomicRecord = ["type", "name", "fields"]

    /// The keys of one `engine` section.
    static func engineKeys(_ section: String) -> [String] {
        engine.first { $0.section == section }?.keys ?? []
    }

    /// The parameters of one latency distribution.
    static func latencyParameters(_ dist: String) -> [String] {
        latencyDistributions.first { $0.dist == dist }?.parameters ?? []
    }
}
