import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabCloud

/// Typed trace lines (`LogFields`) travel beside the actions, not boxed in them: a
/// `.logFields(i)` action is the context's `logs[i]`, in the order they were logged, and
/// nothing is built when the host is not tracing.
@Suite("Typed log lines")
struct TypedLogLineTests {
    @Test("an engine's typed lines are indexed in order beside its other actions; nothing is kept when not tracing")
    func engineLinesAreIndexedInOrder() {
        var context = EngineContext(now: LocalInstant(microseconds: 0), random: SeededRandom(seed: 1, stream: "log"))
        context.log(LogFields("first", ("n", .number(1))))
        context.log("text", [("a", "b")])
        context.log(LogFields("second", ("n", .number(2)), ("m", .literal("none"))))
        var events: [String] = []
        for action in context.actions {
            switch action {
            case .logFields(let line): events.append(context.logs[line].event.description + "#\(line)")
            case .log(let event, _): events.append(event)
            default: Issue.record("unexpected action \(action)")
            }
        }
        #expect(events == ["first#0", "text", "second#1"])
        #expect(context.logs.count == 2 && context.logs[1].details.map(\.1) == ["2", "none"])

        var quiet = EngineContext(now: LocalInstant(microseconds: 0), random: SeededRandom(seed: 1, stream: "log"))
        quiet.tracing = false
        quiet.log(LogFields("first", ("n", .number(1))))
        #expect(quiet.actions.isEmpty && quiet.logs.isEmpty)
    }

    @Test("the cloud's typed lines come back in the host's buffer, indexed as its actions say")
    func cloudLinesComeBackIndexed() {
        var context = CloudContext(now: LocalInstant(microseconds: 0), arrival: 1)
        context.observe(.note("between"))
        context.log(LogFields("kvsFetch", ("since", .number(nil, else: "none"))))
        guard context.actions.count == 2, case .logFields(let line) = context.actions[1] else {
            Issue.record("expected a typed line after the observation: \(context.actions)"); return
        }
        #expect(line == 0 && context.logs[line].event.description == "kvsFetch")
    }
}
