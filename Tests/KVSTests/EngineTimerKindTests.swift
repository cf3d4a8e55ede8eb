import Testing
import SyncLabProtocol
@testable import SyncLabEngines

/// Engines name timers with typed kinds; the number is only what the simulator keys and traces.
@Suite("Engine timer kinds")
struct EngineTimerKindTests {
    @Test("a typed kind round-trips, and keeps the number the trace has always shown")
    func typedKindsKeepTheirNumbers() {
        #expect(EngineTimer(KVSEngine.TimerKind.upload).kind == 1)
        #expect(EngineTimer(KVSEngine.TimerKind.retry).kind == 2)
        #expect(EngineTimer(KVSEngine.TimerKind.retry).kind(as: KVSEngine.TimerKind.self) == .retry)
        #expect(DocumentEngine.retryTimer.kind(as: DocumentEngine.TimerKind.self) == .retry)
        #expect(DocumentEngine.quotaRetryTimer.kind == 2)
        #expect(RecordEngine.quotaTimer.kind(as: RecordEngine.TimerKind.self) == .quota)
    }

    @Test("a number an engine's enum does not have reads as no kind")
    func unknownNumberIsNoKind() {
        #expect(EngineTimer(kind: 9).kind(as: KVSEngine.TimerKind.self) == nil)
    }
}
