import SyncLabChecker
import SyncLabResult
import SyncLabHistory
import SyncLabJSON
import SyncLabSimulation
import SyncLabRunner

/// Turns a shrunk tree into `minimal.json`: a plain scenario whose expectations fail while the bug
/// is there (a promise), or assert that the anomaly appears (`--find`), so `synclab run` on it
/// shows the finding either way (SPEC §10).
public enum MinimalScenario {
    /// - Parameter replayFlag: the `synclab run` flag the finding needs (`--host-records-policies`:
    ///   it was shrunk with the records policies hosted as the built-in apps), named in the
    ///   description; nil for none.
    public static func finish(_ shrunk: JSON, judged: ScenarioRunner.Judged, target: ShrinkTarget, from origin: String,
                              replayFlag: String? = nil) -> JSON {
        var scenario = shrunk.setting("name", .string("minimal: \(target.name)"))
        var description = "Shrunk by synclab from \(origin)."
        let anomaly = firstAnomaly(judged, target)
        switch target {
        case .failedExpectation:
            description += " Its expectations fail while the bug is there."
        case .fingerprint(_, .find(let kind)):
            description += " An example of \(kind): the expectation asserts that it appears."
            if let anomaly { scenario = scenario.setting("expect", .object([("anomalies", .array(examplePatterns(anomaly, among: judged.outcome.report.anomalies)))])) }
        case .fingerprint(_, .promises):
            description += " A broken promise (docs/FUZZING.md): these expectations fail while the bug is there."
            var expect: [(String, JSON)] = []
            if anomaly?.kind == .divergence { expect.append(("converged", .bool(true))) }
            if let anomaly { expect.append(("noAnomalies", .array([pattern(anomaly)]))) }
            scenario = scenario.setting("expect", .object(expect))
        }
        if let replayFlag { description += " It shows with `synclab run minimal.json \(replayFlag)`." }
        return reordered(scenario.setting("description", .string(description)))
    }

    static func firstAnomaly(_ judged: ScenarioRunner.Judged, _ target: ShrinkTarget) -> Anomaly? {
        guard case .fingerprint(let fingerprint, let rule) = target else { return nil }
        return PromiseJudge.findings(judged, rule: rule).first { $0.fingerprint == fingerprint }?.anomaly
    }

    /// The patterns of a `--find` example: the anomaly's, and for a kind that fails a run
    /// unless `expect.anomalies` names it (`ExpectationEvaluator.invariantKinds`), one for each
    /// other anomaly of that kind in the run, so the example passes while it shows them all
    /// (each violation must be named, SPEC §7).
    static func examplePatterns(_ anomaly: Anomaly, among anomalies: [Anomaly]) -> [JSON] {
        var patterns = [pattern(anomaly)]
        guard ExpectationEvaluator.invariantKinds.contains(anomaly.kind) else { return patterns }
        for other in anomalies where other.kind == anomaly.kind {
            let named = pattern(other)
            if !patterns.contains(named) { patterns.append(named) }
        }
        return patterns
    }

    /// `{"kind", "store", "item", "device"}` matching exactly this anomaly.
    static func pattern(_ anomaly: Anomaly) -> JSON {
        let item = anomaly.field.map { "\(anomaly.item).\($0)" } ?? anomaly.item
        return .object([("kind", .string(anomaly.kind.rawValue)), ("store", .string(anomaly.store.rawValue)), ("item", .string(item)),
                        ("device", .string(anomaly.device))])
    }

    /// `format`, `name`, `description` first, `expect` after the steps, as files are written by hand.
    static func reordered(_ scenario: JSON) -> JSON {
        guard let fields = scenario.fields else { return scenario }
        let head = ["format", "name", "description"]
        let first = head.compactMap { key in fields.first { $0.key == key } }
        let middle = fields.filter { !head.contains($0.key) && $0.key != "expect" }
        return .object(first + middle + fields.filter { $0.key == "expect" })
    }
}
