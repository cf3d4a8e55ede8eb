import Foundation
import Testing
import SyncLab

/// Engines and the cloud service together, driven through the public `World` (issue 11): what
/// users of the store see (device views, the cloud's final state) and what the trace says the
/// engines told the app (`notify`), the cloud decided (`lastWriterWins`) or refused (`rejected`).
/// The one test World cannot express, a single lost answer, stays on `KVSMiniWorld`
/// (`KVSLostAnswerTests`).
@Suite struct KVSEndToEndTests {
    /// A world of devices A and B: A's clock `offsetA` off, KVS timestamps from `source`, at most
    /// `keys` keys, `seed`.
    static func world(offsetA: String = "0s", source: String = "device", keys: Int64? = nil) throws -> World {
        var builder = ScenarioBuilder(name: "kvs end to end")
        builder.seed = 1
        builder.device("A", ["clock": ["offset": .string(offsetA)]])
        builder.device("B")
        builder.engine = ["kvs": ["timestampSource": .string(source)]]
        if let keys { builder.limits = ["kvs": ["keys": .integer(keys)]] }
        return try World(Scenario(builder))
    }

    /// The trace's events of kind `ev` (one JSON object a line), each as a dictionary.
    static func events(_ ev: String, in world: World) -> [[String: Any]] {
        world.verdict().trace.split(separator: "\n").compactMap { line in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return object?["ev"] as? String == ev ? object : nil
        }
    }

    /// `notify` events on `device`: reason and items, in order.
    static func notifications(_ device: String, in world: World) -> [String] {
        events("notify", in: world).filter { $0["device"] as? String == device }.map {
            "\($0["reason"] as? String ?? "?") \(($0["items"] as? [String] ?? []).joined(separator: ","))"
        }
    }

    /// The cloud's final KVS store of the main account.
    static func cloudKVS(_ result: RunResult) -> ScenarioValue? {
        guard case .object(let account)? = result.final["main"] else { return nil }
        return account["kvs"]
    }

    @Test func aWriteReachesTheOtherDeviceByPushWithAServerChangeNotification() throws {
        let world = try Self.world()
        world.advance(by: .seconds(10))
        try world.device("A").kvsSet("theme", "dark")
        #expect(world.runUntilQuiescent())
        #expect(world.device("B").view.kvs == ["theme": "dark"])
        #expect(Self.notifications("B", in: world) == ["serverChange theme"])
        #expect(Self.notifications("A", in: world).isEmpty)
        #expect(Self.events("visible", in: world).filter { $0["device"] as? String == "B" }.map { $0["write"] as? String } == ["A:1"])
        #expect(Self.cloudKVS(world.finish()) == ["theme": "dark"])
    }

    @Test func aSlowClockLosesLastWriterWinsAndBothDevicesConverge() throws {
        // A's clock is 60 s behind: its later write carries the earlier timestamp.
        let world = try Self.world(offsetA: "-60s")
        world.advance(by: .seconds(10))
        try world.device("B").kvsSet("k", "B")
        world.advance(by: .seconds(10))
        try world.device("A").kvsSet("k", "A")
        #expect(world.runUntilQuiescent())
        #expect(world.device("A").view.kvs == ["k": "B"], "A learned the cloud kept B's value")
        #expect(world.device("B").view.kvs == ["k": "B"])
        let decisions = Self.events("lastWriterWins", in: world).map { "\($0["item"] ?? "") \($0["chosen"] ?? "") over \($0["over"] ?? ""): \($0["rule"] ?? "")" }
        #expect(decisions == ["k B:1 over A:1: device change timestamp"])
        #expect(Self.cloudKVS(world.finish()) == ["k": "B"])
    }

    @Test func serverTimestampsLetTheLaterArrivalWin() throws {
        let world = try Self.world(offsetA: "-60s", source: "server")
        world.advance(by: .seconds(10))
        try world.device("B").kvsSet("k", "B")
        world.advance(by: .seconds(10))
        try world.device("A").kvsSet("k", "A")
        #expect(world.runUntilQuiescent())
        #expect(world.device("B").view.kvs == ["k": "A"])
        #expect(Self.cloudKVS(world.finish()) == ["k": "A"])
    }

    @Test func aQuotaBrokenOnlyInTheCloudRollsTheLaterDeviceBack() throws {
        let world = try Self.world(keys: 2)
        world.advance(by: .seconds(1))
        try world.device("A").kvsSet("a", 1)
        try world.device("A").kvsSet("b", 2)
        // B writes before A's upload reaches the cloud (so B cannot know), and uploads after it.
        world.advance(by: .seconds(2))
        try world.device("B").kvsSet("c", 3)
        #expect(world.runUntilQuiescent())
        #expect(world.device("A").view.kvs == ["a": 1, "b": 2])
        #expect(world.device("B").view.kvs == ["a": 1, "b": 2])
        // A's upload goes first and its push makes B fetch a and b; then B's own upload is refused.
        #expect(Self.notifications("B", in: world) == ["serverChange a,b", "quotaViolationChange c"])
        #expect(Self.events("rejected", in: world).map { "\($0["device"] ?? "") \($0["item"] ?? ""): \($0["limit"] ?? "")" } == ["B c: kvs.keys"])
        #expect(Self.cloudKVS(world.finish()) == ["a": 1, "b": 2])
    }

    @Test func concurrentIncrementsLoseOneUpdateAsTheClassicReadModifyWrite() throws {
        let world = try Self.world()
        world.advance(by: .seconds(1))
        try world.device("A").kvsIncrement("n")
        world.advance(by: .seconds(1))
        try world.device("B").kvsIncrement("n")
        #expect(world.runUntilQuiescent())
        #expect(world.device("A").view.kvs == ["n": 1], "both read 0")
        #expect(world.device("A").view == world.device("B").view)
        #expect(Self.cloudKVS(world.finish()) == ["n": 1])
    }
}
