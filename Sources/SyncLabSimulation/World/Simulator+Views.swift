import SyncLabKernel
import SyncLabProtocol
import SyncLabScenario
import SyncLabHistory
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
        // A named database is read alone; unnamed, the private one, or the public one for a record only it holds.
        let accounts: [AccountID]
        switch spec.database {
        case .private?: accounts = [account]
        case .public?: accounts = [.publicDatabase]
        case nil: accounts = [account, .publicDatabase]
        }
        for (key, expected) in spec.kvs {
            let actual = lookup.value(ItemKey(account: account, store: .kvs, name: key))
            let wanted: ItemValue = expected.map { .kvs($0) } ?? .absent
            if actual != wanted { failures.append("kvs \"\(key)\" is \(ValueText.describe(actual)), expected \(ValueText.describe(wanted))") }
        }
        for (path, expected) in spec.documents {
            let actual = lookup.value(ItemKey(account: account, store: .documents, name: path))
            let wanted: ItemValue = expected.map { .document($0) } ?? .absent
            if !actual.matches(expectedDocument: expected) { failures.append("document \"\(path)\" is \(ValueText.describe(actual)), expected \(ValueText.describe(wanted))") }
        }
        for (name, fields) in spec.records {
            failures += lookup.recordMismatches(name: name, fields: fields, accounts: accounts)
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
        // The simulator records; the runner above it judges (`ScenarioRunner.checked`), so the report is empty here.
        trace.flush()
        var outcome = RunOutcome(run: run, history: history, report: .empty, trace: trace.bytes, settled: settled, capHit: capHit,
                          endTime: now, statistics: statistics, assertFailures: assertFailures)
        if trace.enabled {
            let summary = trace.summary
            if trace.file != nil { outcome.traceFile = summary } else { outcome.traceDigest = summary }
        }
        return outcome
    }
}
