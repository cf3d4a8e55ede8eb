import Testing
import SyncLabKernel
import SyncLabProtocol
import SyncLabCloud
@testable import SyncLabEngines

/// Engines and the cloud service together (no simulator): what users of the store would see.
@Suite struct KVSEndToEndTests {
    typealias T = KVSTest

    @Test func aWriteReachesTheOtherDeviceByPushWithAServerChangeNotification() {
        var world = KVSMiniWorld(devices: 2)
        world.now = 10
        world.set(0, 1, [(key: "theme", value: .string("dark"))])
        world.now = 16
        world.fireTimers()
        #expect(T.view(world.engines[1]) == ["theme": .string("dark")])
        #expect(world.notifications(1) == [AppNotification(store: .kvs, reason: "serverChange", items: ["theme"])])
        #expect(world.notifications(0).isEmpty)
        #expect(world.cloud.finalView(account: T.main) == [ViewEntry(item: T.item("theme"), value: .kvs(.string("dark")), write: T.write(0, 1))])
        #expect(world.allQuiescent)
    }

    @Test func aSlowClockLosesLastWriterWinsAndBothDevicesConverge() {
        // A's clock is 60 s behind: its later write carries the earlier timestamp.
        var world = KVSMiniWorld(devices: 2, clockOffsets: [-60, 0])
        world.now = 10
        world.set(1, 1, [(key: "k", value: .string("B"))])
        world.now = 20
        world.set(0, 1, [(key: "k", value: .string("A"))])
        world.now = 30
        world.fireTimers()
        #expect(world.cloud.finalView(account: T.main).first?.write == T.write(1, 1))
        #expect(T.view(world.engines[0]) == ["k": .string("B")], "A learned the cloud kept B's value")
        #expect(T.view(world.engines[1]) == ["k": .string("B")])
        #expect(T.lastWriterWins(world.cloudActions) == [T.LWW(key: "k", chosen: T.write(1, 1), over: T.write(0, 1), rule: "device change timestamp")])
        #expect(world.allQuiescent)
    }

    @Test func serverTimestampsLetTheLaterArrivalWin() {
        var world = KVSMiniWorld(devices: 2, clockOffsets: [-60, 0], source: .server)
        world.now = 10
        world.set(1, 1, [(key: "k", value: .string("B"))])
        world.now = 20
        world.set(0, 1, [(key: "k", value: .string("A"))])
        world.now = 30
        world.fireTimers()
        #expect(world.cloud.finalView(account: T.main).first?.write == T.write(0, 1))
        #expect(T.view(world.engines[1]) == ["k": .string("A")])
    }

    @Test func aQuotaBrokenOnlyInTheCloudRollsTheLaterDeviceBack() {
        var world = KVSMiniWorld(devices: 2, limits: KVSLimits(keys: 2))
        world.now = 1
        world.set(0, 1, [(key: "a", value: .integer(1)), (key: "b", value: .integer(2))])
        world.set(1, 1, [(key: "c", value: .integer(3))])
        world.now = 10
        world.fireTimers()
        #expect(world.cloud.finalView(account: T.main).map(\.item.name) == ["a", "b"])
        #expect(T.view(world.engines[1]) == ["a": .integer(1), "b": .integer(2)])
        #expect(T.view(world.engines[0]) == ["a": .integer(1), "b": .integer(2)])
        // A's upload goes first and its push makes B fetch a and b; then B's own upload is refused.
        #expect(world.notifications(1) == [AppNotification(store: .kvs, reason: "serverChange", items: ["a", "b"]),
                                           AppNotification(store: .kvs, reason: "quotaViolationChange", items: ["c"])])
        #expect(T.rejected(world.actions[1]).map(\.limit) == ["kvs.keys"])
        #expect(world.allQuiescent)
    }

    @Test func aLostAnswerIsRetriedWithoutApplyingTheCallTwice() {
        var world = KVSMiniWorld(devices: 2)
        world.now = 1
        world.set(0, 1, [(key: "n", value: .integer(1))])
        world.loseNextResponse[0] = true
        world.now = 10
        world.fireTimers()
        #expect(world.engines[0].pendingWrites().isEmpty, "the retry was acknowledged")
        #expect(T.lastWriterWins(world.cloudActions).isEmpty)
        #expect(world.cloud.finalView(account: T.main).first?.write == T.write(0, 1))
        #expect(world.notifications(1).count == 1, "one change, one notification on the other device")
    }

    @Test func concurrentIncrementsLoseOneUpdateAsTheClassicReadModifyWrite() {
        var world = KVSMiniWorld(devices: 2)
        world.now = 1
        world.run(0) { engine, context in _ = engine.increment(key: "n", by: 1, write: T.write(0, 1), &context) }
        world.now = 2
        world.run(1) { engine, context in _ = engine.increment(key: "n", by: 1, write: T.write(1, 1), &context) }
        world.now = 10
        world.fireTimers()
        #expect(world.cloud.finalView(account: T.main).first?.value == .kvs(.integer(1)), "both read 0")
        #expect(T.view(world.engines[0]) == T.view(world.engines[1]))
    }
}
