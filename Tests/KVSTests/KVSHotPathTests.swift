import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabCloud
@testable import SyncLabEngines

/// What the KVS bench's hot path leans on (docs/PERFORMANCE.md, kvs17): fetches after the same
/// cursor share one answer while the account's sequence stands; the engine's in-place quiescence
/// answers as `isQuiescent`; a notification's keys go in the buffer the host lends; an emptied
/// pending queue holds no buffer of its own.
@Suite("KVS hot path")
struct KVSHotPathTests {
    typealias T = KVSTest

    static func changes(_ response: KVSResponse?) -> [KVSChange] {
        guard case .changes(let changes, _)? = response else {
            Issue.record("expected a changes answer, got \(String(describing: response))")
            return []
        }
        return changes
    }

    /// Where an answer's elements lie: the same address is the same array, shared.
    static func storage(_ changes: [KVSChange]) -> UnsafeRawPointer? {
        changes.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    @Test("fetches after the same cursor share one answer until the account's sequence moves")
    func fetchAnswersAreSharedWhileTheSequenceStands() {
        var service = KVSService(configuration: T.configuration())
        _ = T.send(&service, .upload(calls: [T.call(T.write(0, 1), [("a", .string("1"))], at: 1)]), device: 0, arrival: 1)
        _ = T.send(&service, .upload(calls: [T.call(T.write(0, 2), [("b", .string("2"))], at: 2)]), device: 0, arrival: 2)
        let first = Self.changes(T.send(&service, .fetch(since: 1), device: 1, arrival: 3).response)
        let second = Self.changes(T.send(&service, .fetch(since: 1), device: 2, arrival: 4).response)
        let fromStart = Self.changes(T.send(&service, .fetch(since: nil), device: 3, arrival: 5).response)
        #expect(first.map(\.key) == ["b"])
        #expect(second == first)
        #expect(Self.storage(second) == Self.storage(first), "the second fetch after cursor 1 got the first one's array")
        #expect(fromStart.map(\.key) == ["a", "b"])
        #expect(Self.storage(fromStart) != Self.storage(first), "another cursor, another answer")
        // A write moves the sequence: the next fetch after cursor 1 is made afresh and sees it.
        _ = T.send(&service, .upload(calls: [T.call(T.write(0, 3), [("b", .string("3"))], at: 3)]), device: 0, arrival: 6)
        let after = Self.changes(T.send(&service, .fetch(since: 1), device: 1, arrival: 7).response)
        #expect(after.map(\.value) == [.string("3")])
        #expect(first.map(\.value) == [.string("2")], "an answer given is never changed")
    }

    @Test("more cursors than it keeps: each fetch still gets its own changes")
    func manyCursorsEachGetTheirChanges() {
        var service = KVSService(configuration: T.configuration())
        let keys = (0..<12).map { "k\($0)" }
        for (index, key) in keys.enumerated() {
            _ = T.send(&service, .upload(calls: [T.call(T.write(0, UInt32(index + 1)), [(key, .integer(Int64(index)))], at: Int64(index))]),
                       device: 0, arrival: UInt64(index + 1))
        }
        for round in 0..<2 {
            for cursor in 0..<UInt64(keys.count) {
                let answer = Self.changes(T.send(&service, .fetch(since: cursor), device: 1, arrival: 100 + cursor).response)
                #expect(answer.map(\.key) == keys[Int(cursor)...].sorted { UTF8Order.precedes($0, $1) }, "round \(round), cursor \(cursor)")
            }
        }
    }

    @Test("the in-place quiescence answers as isQuiescent through writes, fetches, offline and sign-out")
    func quiescenceInPlaceAgreesWithTheGetter() {
        var world = KVSMiniWorld(devices: 2)
        var seen: Set<Bool> = []
        func agree(_ step: String) {
            for index in world.engines.indices {
                let expected = world.engines[index].isQuiescent
                #expect(world.engines[index].isQuiescentInPlace() == expected, "\(step), device \(index)")
                seen.insert(expected)
            }
        }
        agree("launched and fetched")
        world.set(0, 1, [("k", .string("v"))])
        agree("a write pending")
        let upload = world.timers.removeFirst()
        world.run(upload.device) { engine, context in engine.handle(.timer(upload.timer), &context) }
        agree("its upload on the wire")
        world.deliverAll()
        agree("answered, the other device pushed and fetched")
        world.run(1) { engine, context in engine.handle(.connectivity(online: false), &context) }
        world.set(1, 1, [("k", .string("w"))])
        agree("a write pending offline")
        world.run(1) { engine, context in engine.handle(.signedOut, &context) }
        agree("signed out with a write pending")
        world.run(1) { engine, context in engine.handle(.signedIn(KVSTest.main), &context) }
        world.run(1) { engine, context in engine.handle(.connectivity(online: true), &context) }
        agree("back online and signed in")
        world.fireTimers()
        world.deliverAll()
        agree("settled")
        #expect(seen == [true, false], "both answers were checked")
    }

    @Test("a fetched change's notification lists its keys in the buffer the host lent")
    func notificationKeysUseTheLentBuffer() {
        var engine = T.launchedEngine(1)
        var context = T.context()
        engine.handle(.push(PushNotification(store: .kvs, account: T.main)), &context)
        guard let (id, _) = T.sends(context.actions).first else {
            Issue.record("the push asked for no fetch")
            return
        }
        var buffer: [String] = ["left over"]
        buffer.reserveCapacity(8)
        let lent = buffer.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        var answer = T.context()
        answer.keysBuffer = buffer
        buffer = []
        let change = KVSChange(number: 0, state: KVSKeyState(key: "k", value: .string("v"), write: T.write(0, 1), timestamp: T.at(1)))
        engine.handle(.response(T.ok(id, .changes([change], cursor: 1), device: 1)), &answer)
        let notifications = T.notifications(answer.actions)
        #expect(notifications.map(\.items) == [["k"]], "the buffer's old contents are gone")
        #expect(notifications.first.map { $0.items.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } } == lent)
        #expect(answer.keysBuffer.isEmpty, "taken")
    }

    @Test("an upload answer that empties the pending queue lets its buffer go")
    func anEmptiedQueueHoldsNoBuffer() {
        var world = KVSMiniWorld(devices: 1)
        world.set(0, 1, [("k", .string("v"))])
        #expect(world.engines[0].durable.pending.capacity > 0)
        world.fireTimers()
        world.deliverAll()
        #expect(world.engines[0].durable.pending.isEmpty)
        #expect(world.engines[0].durable.pending.capacity == 0, "the shared empty array, not a kept buffer")
    }
}
