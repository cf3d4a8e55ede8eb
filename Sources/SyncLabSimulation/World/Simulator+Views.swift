import SyncLabKernel
import SyncLabProtocol
import SyncLabScenario
import SyncLabHistory
import SyncLabChecker
import SyncLabResult

extension Simulator {
    /// What the device's app sees now, all stores, sorted by item.
    func localView(_ index: Int) -> [ViewEntry] {
        var view: [ViewEntry] = []
        if let engine = devices[index].kvs { view += engine.localView() }
        if let engine = devices[index].documents { view += engine.localView() }
        if let engine = devices[index].records { view += engine.localView() }
        if let platform = devices[index].recordsPlatform { view += platform.localView() }
        return view.sorted { $0.item < $1.item }
    }

    /// An `assert` step: compares the device's local view; a failure fails the run.
    mutating func runAssert(_ spec: AssertSpec, on index: Int, source: String) {
        let view = localView(index)
        let account = devices[index].account ?? devices[index].lastAccount
        let lookup = ItemLookup(view)
        var failures: [String] = []
        for (key, expected) in spec.kvs {
            let actual = lookup.value(ItemKey(account: account, store: .kvs, name: key))
            let wanted: ItemValue = expected.map { .kvs($0) } ?? .absent
            if actual != wanted { failures.append("kvs \"\(key)\" is \(ValueText.describe(actual)), expected \(ValueText.describe(wanted))") }
        }
        for (path, expected) in spec.documents {
            let actual = lookup.value(ItemKey(account: account, store: .documents, name: path))
            let wanted: ItemValue = expected.map { .document($0) } ?? .absent
            if actual != wanted { failures.append("document \"\(path)\" is \(ValueText.describe(actual)), expected \(ValueText.describe(wanted))") }
        }
        for (name, fields) in spec.records {
            failures += lookup.recordMismatches(name: name, fields: fields, accounts: [account, .publicDatabase])
        }
        let passed = failures.isEmpty
        let message = passed ? "assert held" : "\(source) assert on \(devices[index].name) at \(SimDuration(microseconds: now.microseconds)): " + failures.joined(separator: "; ")
        if !passed { assertFailures.append(message) }
        trace.record(now, .assert, [("device", .string(devices[index].name)), ("passed", .bool(passed)), ("message", .string(message)), ("step", .string(source))])
    }

    /// Builds the outcome once the loop has stopped.
    mutating func finish(settled: Bool, capHit: Bool, judge: Bool) -> RunOutcome {
        history.finalCloud = (0..<run.accounts.count).map { cloud.finalView(account: AccountID(index: $0)) }
        history.finalPublic = cloud.finalView(account: .publicDatabase)
        history.survivingWrites = (0..<run.accounts.count).map { cloud.survivingWrites(account: AccountID(index: $0)) }
        history.finalDeviceViews = devices.indices.map { index in
            judge && devices[index].installed && !devices[index].crashed && devices[index].account != nil ? localView(index) : nil
        }
        history.finalDeviceAccounts = devices.map(\.account)
        history.end = now
        // A run the event cap cut off has no end state to judge: its divergences and losses would be
        // artifacts of the cut, so it is reported as the runaway it is and nothing else.
        let report = judge && !capHit ? Checker().check(history) : CheckReport.empty
        trace.flush()
        var outcome = RunOutcome(run: run, history: history, report: report, trace: trace.bytes, settled: settled, capHit: capHit,
                          endTime: now, statistics: statistics, assertFailures: assertFailures)
        outcome.traceFile = trace.file.map { TraceFileSummary(bytes: $0.bytesWritten, digest: $0.digest.value) }
        return outcome
    }
}

/// Finds items of a sorted view by key.
struct ItemLookup {
    var byItem: [ItemKey: ItemValue] = [:]
    init(_ view: [ViewEntry]) { for entry in view { byItem[entry.item] = entry.value } }

    func value(_ item: ItemKey) -> ItemValue { byItem[item] ?? .absent }

    /// Compares the listed fields of record `name` (`ZONE/NAME`); nil fields means "absent".
    func recordMismatches(name: String, fields: [FieldAssignment]?, accounts: [AccountID]) -> [String] {
        let account = accounts.first { byItem[ItemKey(account: $0, store: .records, name: name, field: "")] != nil } ?? accounts[0]
        let exists = byItem[ItemKey(account: account, store: .records, name: name, field: "")].map { $0 != .absent } ?? false
        guard let fields else {
            return exists ? ["record \"\(name)\" exists, expected it absent"] : []
        }
        guard exists else { return ["record \"\(name)\" is absent, expected fields \(fields.map(\.name).joined(separator: ", "))"] }
        var failures: [String] = []
        for field in fields {
            let actual = value(ItemKey(account: account, store: .records, name: name, field: field.name))
            let wanted: ItemValue = field.value.map { .field($0) } ?? .absent
            if actual != wanted { failures.append("record \"\(name)\" field \(field.name) is \(ValueText.describe(actual)), expected \(ValueText.describe(wanted))") }
        }
        return failures
    }
}
