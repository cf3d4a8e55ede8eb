import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabHistory
@testable import SyncLabChecker

/// The passes that run on the finished graph, each looked at alone.
@Suite("Checker passes: on the graph")
struct GraphPassTests {
    @Test("causality: only a choice of a write the loser had seen is an inversion")
    func causalityPassFlagsOnlyObservedWinners() {
        var builder = HistoryBuilder()
        let key = builder.key("k")
        let a = builder.write(0, at: 0, [(key, .kvs(.integer(1)))])
        builder.fetch(1, at: 1, [(key, .kvs(.integer(1)), a)])
        let b = builder.write(1, at: 2, [(key, .kvs(.integer(2)))])
        let c = builder.write(0, at: 3, [(key, .kvs(.integer(3)))])
        builder.cloud(at: 4, .lastWriterWins(item: key, chosen: a, over: b, rule: "device timestamp"))   // inverted
        builder.cloud(at: 5, .lastWriterWins(item: key, chosen: b, over: c, rule: "device timestamp"))   // concurrent: fine
        var context = PassHarness.scan(builder).context
        var pass = CausalityPass()
        pass.run(&context)
        #expect(pass.anomalies.map(\.write) == ["B:1"])
        #expect(pass.anomalies.map(\.replacedBy) == ["A:1"])
        #expect(pass.invertedBy[Int(context.graph.existingIndex(of: b)!)] == 0)
        #expect(pass.invertedBy[Int(context.graph.existingIndex(of: c)!)] == -1)
    }

    @Test("survival: a write of two keys can survive on one and be lost on the other")
    func survivalPassJudgesEachKeyAlone() {
        var builder = HistoryBuilder()
        let x = builder.key("x"), y = builder.key("y")
        let pair = builder.write(0, at: 0, [(x, .kvs(.integer(1))), (y, .kvs(.integer(1)))], op: "kvs.setMany")
        let other = builder.write(1, at: 1, [(y, .kvs(.integer(2)))])
        builder.final([ViewEntry(item: x, value: .kvs(.integer(1)), write: pair), ViewEntry(item: y, value: .kvs(.integer(2)), write: other)])
        var context = PassHarness.scan(builder).context
        var pass = SurvivalPass()
        pass.run(&context)
        let lost = pass.lostItems[Int(context.graph.existingIndex(of: pair)!)].map { context.items[$0].name }
        #expect(lost == ["y"])
        #expect(pass.lostItems[Int(context.graph.existingIndex(of: other)!)].isEmpty)
    }

    @Test("lost updates: the replacer is the first write the writer's own device showed in its place")
    func lostUpdatePassNamesWhatTheDeviceSaw() {
        var builder = HistoryBuilder()
        let key = builder.key("k")
        let a = builder.write(0, at: 0, [(key, .kvs(.integer(1)))])
        let b = builder.write(1, at: 1, [(key, .kvs(.integer(2)))])
        builder.fetch(0, at: 2, [(key, .kvs(.integer(2)), b)])
        builder.final([ViewEntry(item: key, value: .kvs(.integer(2)), write: b)])
        var context = PassHarness.scan(builder).context
        var survival = SurvivalPass(), causality = CausalityPass(), pass = LostUpdatePass()
        causality.run(&context)
        survival.run(&context)
        pass.run(&context, lostItems: survival.lostItems, invertedBy: causality.invertedBy)
        #expect(pass.anomalies.count == 1)
        #expect(pass.anomalies.first?.write == "A:1")
        #expect(pass.anomalies.first?.replacedBy == "B:1")
        #expect(pass.anomalies.first?.explanation == "A's write A:1 (kvs.set at 0ms) was lost: B:1 (kvs.set on B at 1s) replaced it without having seen it.")
        _ = a
    }

    @Test("resurrection: a KVS key set without seeing its removal names the removal as the write undone")
    func resurrectionPassNamesTheRemovalForKVS() {
        var builder = HistoryBuilder()
        let key = builder.key("k")
        let a = builder.write(0, at: 0, [(key, .kvs(.integer(1)))])
        builder.fetch(1, at: 1, [(key, .kvs(.integer(1)), a)])
        let removal = builder.write(1, at: 2, [(key, .absent)], op: "kvs.remove")
        let set = builder.write(0, at: 3, [(key, .kvs(.integer(5)))])
        // The cloud applied the removal, then the set over it (a removal it never applied, still
        // pending at the end, removed nothing there and is no resurrection).
        builder.cloud(at: 4, .lastWriterWins(item: key, chosen: set, over: removal, rule: "device change timestamp"))
        builder.final([ViewEntry(item: key, value: .kvs(.integer(5)), write: set)])
        var context = PassHarness.scan(builder).context
        var pass = ResurrectionPass()
        pass.run(&context)
        #expect(pass.anomalies.count == 1)
        #expect(pass.anomalies.first?.write == "B:1")
        #expect(pass.anomalies.first?.replacedBy == "A:2")
    }

    @Test("divergence: one anomaly per device and store, naming three items and counting the rest")
    func divergencePassSummarisesPerStore() {
        var builder = HistoryBuilder()
        let keys = (1...5).map { builder.key("k\($0)") }
        let entries = keys.map { ViewEntry(item: $0, value: .kvs(.integer(1)), write: nil) }
        builder.final(entries, devices: [entries, []])
        var pass = DivergencePass()
        pass.run(PassHarness.scan(builder).context)
        #expect(pass.anomalies.count == 1)
        #expect(pass.anomalies.first?.explanation == "After settling, B disagrees with the cloud on 5 kvs items: k1, k2, k3 and 2 more.")
    }
}
