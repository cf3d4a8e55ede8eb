import Testing
import SyncLabKernel
import SyncLabProtocol

/// Observations kept beside the actions when the host asks (`observationsApart`, the simulator):
/// an `.observed(i)` action is the context's `observations[i]`, in order among the other actions;
/// by default they stay boxed in `.observe`, and nothing is built when nobody observes.
@Suite("Observations kept apart")
struct ObservationsApartTests {
    @Test("kept apart, an observation is indexed in order among the actions; by default it is boxed in the action")
    func observationsAreIndexedInOrder() {
        var context = EngineContext(now: LocalInstant(microseconds: 0), random: SeededRandom(seed: 1, stream: "observe"))
        context.observationsApart = true
        context.observe(.note("first"))
        context.emit(.cancelTimer(EngineTimer(kind: 1)))
        context.observe(.note("second"))
        var seen: [String] = []
        for action in context.actions {
            switch action {
            case .observed(let position):
                guard case .note(let text) = context.observations[position] else { Issue.record("not the note observed"); continue }
                seen.append("\(text)#\(position)")
            case .cancelTimer: seen.append("timer")
            default: Issue.record("unexpected action \(action)")
            }
        }
        #expect(seen == ["first#0", "timer", "second#1"])

        var boxed = EngineContext(now: LocalInstant(microseconds: 0), random: SeededRandom(seed: 1, stream: "observe"))
        boxed.observe(.note("first"))
        guard boxed.actions.count == 1, case .observe(.note("first")) = boxed.actions[0] else {
            Issue.record("expected the observation in its action: \(boxed.actions)"); return
        }
        #expect(boxed.observations.isEmpty)

        var quiet = EngineContext(now: LocalInstant(microseconds: 0), random: SeededRandom(seed: 1, stream: "observe"))
        quiet.observationsApart = true
        quiet.observing = false
        quiet.observe(.note("first"))
        #expect(quiet.actions.isEmpty && quiet.observations.isEmpty)
    }
}
