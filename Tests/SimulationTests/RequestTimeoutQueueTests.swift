import Testing
import SyncLabKernel
import SyncLabScenario
@testable import SyncLabSimulation

/// A request's timeout enters the event queue only once the request may go unanswered (issue 13,
/// profile item 4: at 1,000 devices 15% of all events were timeouts popping after their answer).
/// Where it is queued it pops exactly where one queued at the send would have, so traces keep
/// every live event in the same order (the committed reports differ only in their event counts).
@Suite("Request timeouts in the queue")
struct RequestTimeoutQueueTests {
    static func simulator(_ text: String) throws -> Simulator {
        guard case .success(let scenario) = ScenarioLoader.parse(text: text, path: "test.json"), let run = scenario.runs.first else {
            throw HarnessError(message: "bad scenario")
        }
        return Simulator(run: run)
    }

    static func queuedTimeouts(_ simulator: Simulator) -> Int {
        simulator.queue.countPending { if case .requestTimeout = $0 { return true }; return false }
    }

    @Test("answered requests leave no timeout waiting in the queue")
    func answeredRequestsQueueNoTimeout() throws {
        var simulator = try Self.simulator("""
        {"format": "synclab/1", "name": "answered", "network": {"latency": "100ms"},
         "devices": [{"id": "A"}, {"id": "B"}],
         "steps": [{"at": "1s", "device": "A", "op": "kvs.set", "key": "k", "value": 1}]}
        """)
        simulator.start()
        simulator.run(until: SimInstant(microseconds: 10_000_000))
        // Launch fetches, A's upload, B's fetch after the push: all answered by now, none timed out.
        #expect(simulator.statistics.messages > 4)
        #expect(simulator.statistics.retries == 0)
        #expect(Self.queuedTimeouts(simulator) == 0)
        #expect(simulator.inFlight.isEmpty)
    }

    @Test("a request lost on the way keeps its timeout queued")
    func lostRequestQueuesItsTimeout() throws {
        var simulator = try Self.simulator("""
        {"format": "synclab/1", "name": "lost", "network": {"latency": "100ms", "loss": 1.0},
         "devices": [{"id": "A"}],
         "steps": [{"at": "1s", "device": "A", "op": "kvs.set", "key": "k", "value": 1}]}
        """)
        simulator.start()
        simulator.run(until: SimInstant(microseconds: 10_000_000))
        #expect(!simulator.inFlight.isEmpty)
        #expect(Self.queuedTimeouts(simulator) == simulator.inFlight.count)
    }

    // A's launch fetch is answered while A goes offline: the response is dropped, and the request
    // times out 30 s after the response would have arrived (its deadline moved when the cloud
    // answered), as when every timeout was queued at the send.
    @Test("a response dropped on its way times the request out at the moved deadline")
    func droppedResponseTimesOutAtMovedDeadline() throws {
        let judged = try Harness.run("""
        {"format": "synclab/1", "name": "dropped answer", "network": {"latency": "1s"},
         "devices": [{"id": "A"}],
         "steps": [{"at": "1500ms", "device": "A", "op": "airplane.on"},
                   {"at": "2m", "device": "A", "op": "airplane.off"}],
         "expect": {"settled": true}}
        """)
        let events = try Harness.events(judged)
        let dropped = try #require(events.first { $0.event == "dropped" && $0.string("device") == "A" })
        #expect(dropped.string("why") == "device went offline while the response was in flight")
        func same(_ line: TraceLine) -> Bool { line.string("store") == dropped.string("store") && line.int("req") == dropped.int("req") }
        let respond = try #require(events.first { $0.event == "respond" && same($0) })
        #expect(dropped.time == respond.int("arrive_us"))
        let timeout = try #require(events.first { $0.event == "timeout" && same($0) })
        #expect(timeout.time == dropped.time + 30_000_000)
    }
}
