import SyncLabKernel
import SyncLabJSON
import SyncLabProtocol
import SyncLabHistory
import SyncLabChecker
import SyncLabResult

/// RESULT (SPEC §7): keys in exactly the order the spec lists, maps sorted by UTF-8 bytes.
public enum ResultDocument {
    /// The digest of the trace's bytes: `fnv1a64:` and 16 hex digits.
    public static func traceDigest(_ trace: [UInt8]) -> String {
        var hasher = FNV1a64()
        hasher.combine(trace)
        return "fnv1a64:" + hasher.hexDigest
    }

    /// - Parameter file: the scenario path as given on the command line.
    public static func json(_ judged: JudgedRun, file: String) -> JSON {
        let outcome = judged.outcome
        let report = outcome.report
        let run = outcome.run
        let metrics = JSON.object([
            ("writes", .int(Int64(report.writes))),
            ("lostUpdates", .int(Int64(report.lostUpdates))),
            ("conflicts", .int(Int64(report.conflicts))),
            ("unresolvedConflicts", .int(Int64(report.unresolvedConflicts))),
            ("quotaViolations", .int(Int64(report.quotaViolations))),
            ("converged", .bool(report.converged)),
            ("notifications", .int(Int64(report.notifications))),
            ("messages", .int(Int64(outcome.statistics.messages))),
            ("retries", .int(Int64(outcome.statistics.retries))),
        ])
        return JSON.object([
            ("scenario", .string(run.scenarioName)),
            ("file", .string(file)),
            ("variant", .string(run.variant)),
            ("seed", .uint(run.seed)),
            ("passed", .bool(judged.passed)),
            ("traceDigest", .string("fnv1a64:" + FNV1a64(value: outcome.digestOfTrace).hexDigest)),
            ("events", .int(Int64(outcome.statistics.events))),
            ("simulatedEnd_us", .int(outcome.endTime.microseconds)),
            ("settled", .bool(outcome.settled)),
            ("metrics", metrics),
            ("anomalies", .array(report.anomalies.map(anomalyJSON))),
            ("expectations", .array(judged.expectations.map { expectation in
                JSON.object([("name", .string(expectation.name)), ("wanted", expectation.wanted), ("actual", expectation.actual), ("passed", .bool(expectation.passed))])
            })),
            ("final", finalJSON(outcome.history)),
        ])
    }

    public static func anomalyJSON(_ anomaly: Anomaly) -> JSON {
        var members: [(String, JSON)] = [("kind", .string(anomaly.kind.rawValue)), ("store", .string(anomaly.store.rawValue)),
                                         ("account", .string(anomaly.account)), ("item", .string(anomaly.item))]
        if let field = anomaly.field { members.append(("field", .string(field))) }
        members.append(("device", .string(anomaly.device)))
        members.append(("at_us", .int(anomaly.at.microseconds)))
        members.append(("explanation", .string(anomaly.explanation)))
        if let write = anomaly.write { members.append(("write", .string(write))) }
        if let replacedBy = anomaly.replacedBy { members.append(("replacedBy", .string(replacedBy))) }
        if let limit = anomaly.limit { members.append(("limit", .string(limit))) }
        if !anomaly.items.isEmpty { members.append(("items", .array(anomaly.items.map { .string($0) }))) }
        return JSON.object(members)
    }

    /// `{ACCOUNT: {"kvs", "documents", "records"}}`, accounts sorted, the public database as `public`.
    public static func finalJSON(_ history: History) -> JSON {
        var accounts: [(String, JSON)] = []
        for (index, view) in history.finalCloud.enumerated() {
            accounts.append((history.accountNames[index], storesJSON(view)))
        }
        if !history.finalPublic.isEmpty { accounts.append(("public", storesJSON(history.finalPublic))) }
        return JSON.sortedObject(accounts)
    }

    static func storesJSON(_ view: [ViewEntry]) -> JSON {
        var kvs: [(String, JSON)] = [], documents: [(String, JSON)] = []
        var records: [(String, [(String, JSON)])] = []
        for entry in view where entry.value != .absent {
            switch entry.item.store {
            case .kvs: kvs.append((entry.item.name, ValueJSON.json(entry.value)))
            case .documents: documents.append((entry.item.name, ValueJSON.json(entry.value)))
            case .records:
                if records.last?.0 != entry.item.name { records.append((entry.item.name, [])) }
                if !entry.item.field.isEmpty { records[records.count - 1].1.append((entry.item.field, ValueJSON.json(entry.value))) }
            }
        }
        return JSON.object([
            ("kvs", JSON.sortedObject(kvs)),
            ("documents", JSON.sortedObject(documents)),
            ("records", JSON.sortedObject(records.map { ($0.0, JSON.sortedObject($0.1)) })),
        ])
    }
}
