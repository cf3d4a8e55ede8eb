import Testing
import SyncLabKernel
import SyncLabHistory
import SyncLabJSON
@testable import SyncLabExplore

/// `--find` examples name every violation of an invariant kind: a run fails on each
/// `atomicityViolation` / `isolationViolation` no pattern of `expect.anomalies` matches (SPEC §7),
/// so an example naming only the first would fail `synclab run minimal.json`.
@Suite("The patterns of a --find example")
struct FindExamplePatternsTests {
    static func anomaly(_ kind: AnomalyKind, device: String, item: String) -> Anomaly {
        Anomaly(kind: kind, store: .records, account: "main", item: item, field: nil, device: device,
                at: SimInstant(microseconds: 0), explanation: "x")
    }

    @Test("an atomicityViolation example names the run's other atomicity violations too, each once")
    func invariantKindNamesEveryViolation() {
        let first = Self.anomaly(.atomicityViolation, device: "B", item: "L/list")
        let all = [first, Self.anomaly(.lostUpdate, device: "A", item: "L/list"), Self.anomaly(.atomicityViolation, device: "C", item: "L/item"),
                   Self.anomaly(.atomicityViolation, device: "C", item: "L/item")]
        let patterns = MinimalScenario.examplePatterns(first, among: all)
        #expect(patterns == [MinimalScenario.pattern(first), MinimalScenario.pattern(all[2])])
    }

    @Test("a lostUpdate example names that anomaly alone: other kinds fail a run only through expect")
    func otherKindNamesOne() {
        let first = Self.anomaly(.lostUpdate, device: "B", item: "k")
        let patterns = MinimalScenario.examplePatterns(first, among: [first, Self.anomaly(.lostUpdate, device: "C", item: "j")])
        #expect(patterns == [MinimalScenario.pattern(first)])
    }
}
