import SyncLabKernel
import SyncLabJSON
import SyncLabProtocol
import SyncLabScenario
import SyncLabHistory
import SyncLabResult
import SyncLabSimulation

/// Judges a run against its `expect` block, its asserts and the invariants (SPEC §5, §7).
public enum ExpectationEvaluator {
    /// Anomaly kinds that fail a run under every policy unless `expect.anomalies` names them.
    public static let invariantKinds: [AnomalyKind] = [.atomicityViolation, .isolationViolation]

    public static func evaluate(_ outcome: RunOutcome) -> [ExpectationResult] {
        let expect = outcome.run.expect
        let report = outcome.report
        var results: [ExpectationResult] = []
        if outcome.capHit {
            // Not judged (see `Simulator.finish`): the asserts that ran, and the cap.
            results += outcome.assertFailures.map { ExpectationResult(name: "assert", wanted: .string("holds"), actual: .string($0), passed: false) }
            results.append(ExpectationResult(name: "end.maxEvents", wanted: .int(Int64(outcome.run.end.maxEvents)),
                                             actual: .string("event cap hit after \(outcome.statistics.events) events: a runaway run, not judged"), passed: false))
            return results
        }
        func count(_ name: String, _ wanted: CountExpectation?, _ actual: Int) {
            guard let wanted else { return }
            results.append(ExpectationResult(name: name, wanted: countJSON(wanted), actual: .int(Int64(actual)), passed: wanted.accepts(actual)))
        }
        if let converged = expect.converged {
            results.append(ExpectationResult(name: "converged", wanted: .bool(converged), actual: .bool(report.converged), passed: converged == report.converged))
        }
        count("lostUpdates", expect.lostUpdates, report.lostUpdates)
        count("conflicts", expect.conflicts, report.conflicts)
        count("unresolvedConflicts", expect.unresolvedConflicts, report.unresolvedConflicts)
        count("quotaViolations", expect.quotaViolations, report.quotaViolations)
        if let settled = expect.settled {
            results.append(ExpectationResult(name: "settled", wanted: .bool(settled), actual: .bool(outcome.settled), passed: settled == outcome.settled))
        }
        for (index, pattern) in expect.anomalies.enumerated() {
            let matches = report.anomalies.filter { matchesPattern($0, pattern) }.count
            results.append(ExpectationResult(name: "anomalies[\(index)]", wanted: patternJSON(pattern), actual: .int(Int64(matches)), passed: matches > 0))
        }
        for (index, pattern) in expect.noAnomalies.enumerated() {
            let matches = report.anomalies.filter { matchesPattern($0, pattern) }.count
            results.append(ExpectationResult(name: "noAnomalies[\(index)]", wanted: patternJSON(pattern), actual: .int(Int64(matches)), passed: matches == 0))
        }
        if let final = expect.final { results += finalResults(final, outcome) }
        for (index, wanted) in expect.notifications.enumerated() {
            let actual = report.notificationCounts.first { $0.device == wanted.device && $0.reason == wanted.reason }?.count ?? 0
            let bounds = CountExpectation(min: wanted.min ?? (wanted.max == nil ? 1 : nil), max: wanted.max)
            results.append(ExpectationResult(name: "notifications[\(index)] \(wanted.device) \(wanted.reason)", wanted: countJSON(bounds), actual: .int(Int64(actual)), passed: bounds.accepts(actual)))
        }
        for failure in outcome.assertFailures {
            results.append(ExpectationResult(name: "assert", wanted: .string("holds"), actual: .string(failure), passed: false))
        }
        // Each violation must match a pattern (SPEC §7: one "that expect.anomalies does not
        // name"): a pattern naming B's violation does not excuse C's, which fails the run and is
        // counted. It used to be enough to name the kind in any pattern.
        for kind in invariantKinds {
            let unnamed = report.anomalies.filter { anomaly in
                anomaly.kind == kind && !expect.anomalies.contains { matchesPattern(anomaly, $0) }
            }.count
            if unnamed > 0 {
                results.append(ExpectationResult(name: "invariant \(kind.rawValue)", wanted: .int(0), actual: .int(Int64(unnamed)), passed: false))
            }
        }
        return results
    }

    /// Does `anomaly` match `pattern` (kind, and store/item/device when given)?
    public static func matchesPattern(_ anomaly: Anomaly, _ pattern: AnomalyPattern) -> Bool {
        guard anomaly.kind == pattern.kind else { return false }
        if let store = pattern.store, store != anomaly.store.rawValue { return false }
        if let device = pattern.device, device != anomaly.device { return false }
        if let item = pattern.item {
            let full = anomaly.field.map { "\(anomaly.item).\($0)" } ?? anomaly.item
            if item != anomaly.item && item != full && !anomaly.items.contains(item) { return false }
        }
        return true
    }

    static func countJSON(_ count: CountExpectation) -> JSON {
        switch (count.min, count.max) {
        case let (low?, high?) where low == high && count.isExact: return .int(Int64(low))
        case let (low?, high?): return JSON.object([("min", .int(Int64(low))), ("max", .int(Int64(high)))])
        case let (low?, nil): return JSON.object([("min", .int(Int64(low)))])
        case let (nil, high?): return JSON.object([("max", .int(Int64(high)))])
        case (nil, nil): return JSON.object([JSONField]())
        }
    }

    static func patternJSON(_ pattern: AnomalyPattern) -> JSON {
        var members: [(String, JSON)] = [("kind", .string(pattern.kind.rawValue))]
        if let store = pattern.store { members.append(("store", .string(store))) }
        if let item = pattern.item { members.append(("item", .string(item))) }
        if let device = pattern.device { members.append(("device", .string(device))) }
        return JSON.object(members)
    }

    static func finalResults(_ final: FinalExpectation, _ outcome: RunOutcome) -> [ExpectationResult] {
        let account = AccountID(index: 0)
        // Records as an `assert` without `database` reads them: the first account's private
        // database, or the public one for a record only it holds (a public record could not be
        // checked at all: it read null).
        let lookup = ItemLookup((outcome.history.finalCloud.first ?? []) + outcome.history.finalPublic)
        var results: [ExpectationResult] = []
        for (key, expected) in final.kvs {
            let actual = lookup.value(ItemKey(account: account, store: .kvs, name: key))
            let wanted: ItemValue = expected.map { .kvs($0) } ?? .absent
            results.append(ExpectationResult(name: "final.kvs.\(key)", wanted: ValueJSON.json(wanted), actual: ValueJSON.json(actual), passed: actual == wanted))
        }
        for (path, expected) in final.documents {
            let actual = lookup.value(ItemKey(account: account, store: .documents, name: path))
            let wanted: ItemValue = expected.map { .document($0) } ?? .absent
            results.append(ExpectationResult(name: "final.documents.\(path)", wanted: ValueJSON.json(wanted), actual: ValueJSON.json(actual), passed: actual.matches(expectedDocument: expected)))
        }
        for (name, fields) in final.records {
            let mismatches = lookup.recordMismatches(name: name, fields: fields, accounts: [account, .publicDatabase])
            let wanted: JSON = fields.map { JSON.object($0.map { ($0.name, $0.value.map { ValueJSON.json($0) } ?? .null) }) } ?? .null
            var actualMembers: [(String, JSON)] = []
            let holder = lookup.recordHolder(name: name, accounts: [account, .publicDatabase])
            let exists = lookup.value(ItemKey(account: holder, store: .records, name: name, field: "")) != .absent
            if let fields {
                for field in fields {
                    actualMembers.append((field.name, ValueJSON.json(lookup.value(ItemKey(account: holder, store: .records, name: name, field: field.name)))))
                }
            } else {
                // Wanted absent: a record that exists shows every field it has (it read `{}`,
                // as if the record had no fields, since no field was listed).
                actualMembers = lookup.recordFields(name: name, account: holder).map { ($0.name, ValueJSON.json($0.value)) }
            }
            let actual: JSON = exists ? JSON.object(actualMembers) : .null
            results.append(ExpectationResult(name: "final.records.\(name)", wanted: wanted, actual: actual, passed: mismatches.isEmpty))
        }
        return results
    }
}
