import Foundation
import Testing
import SyncLab

/// Record engines and the cloud together, driven through the public `World` (issue 11): what the
/// user sees (device views, the cloud's final state) and what the trace says happened (which
/// write each device was shown, and why: `visible` with its cause; `conflict`, `conflictShown`).
/// The tests that need lost responses, throttling windows, requests on the wire or engine
/// internals (change tags, pending writes, request counters) stay on the sans-IO `RecordWorld`.
@Suite struct RecordEndToEndTests {
    /// Devices A and B; A creates zone `Z` and saves note `n1`, and B fetches it.
    static func world() throws -> World {
        let world = try World(devices: ["A", "B"], apps: ["records": "merge"])
        try world.device("A").zoneCreate("Z")
        try world.device("A").recordSave(zone: "Z", type: "Note", name: "n1", fields: ["title": "Groceries", "body": "milk"])
        #expect(world.runUntilQuiescent())
        return world
    }

    /// The trace's events of kind `ev` (one JSON object a line), each as a dictionary.
    static func events(_ ev: String, in world: World) -> [[String: Any]] {
        world.verdict().trace.split(separator: "\n").compactMap { line in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return object?["ev"] as? String == ev ? object : nil
        }
    }

    /// `visible` events of `field` of `item` on `device`: `WRITE CAUSE`, in order.
    static func shown(_ device: String, _ item: String, _ field: String, in world: World) -> [String] {
        events("visible", in: world).filter { $0["device"] as? String == device && $0["item"] as? String == item && $0["field"] as? String == field }
            .map { "\($0["write"] as? String ?? "null") \($0["cause"] as? String ?? "?")" }
    }

    /// Field `field` of the cloud's final record `name` (`ZONE/NAME`) of the main account.
    static func cloudField(_ result: RunResult, _ name: String, _ field: String) -> ScenarioValue? {
        guard case .object(let account)? = result.final["main"], case .object(let records)? = account["records"],
              case .object(let record)? = records[name] else { return nil }
        return record[field]
    }

    @Test func aSavedRecordReachesTheOtherDeviceByPushAndFetch() throws {
        let world = try Self.world()
        #expect(world.device("B").view.records["Z/n1"]?["title"] == "Groceries")
        #expect(world.device("B").view == world.device("A").view)
        #expect(Self.shown("B", "Z/n1", "title", in: world) == ["A:2 fetch"])
        let created = Self.events("visible", in: world).filter { $0["device"] as? String == "B" && $0["item"] as? String == "Z/n1" && $0["field"] == nil }
        #expect(created.map { ($0["value"] as? [String: String])?["$recordType"] } == ["Note"], "B shows the record exists, of type Note")
        #expect(world.isQuiescent)
        let result = world.finish()
        #expect(result.metrics.converged)
        #expect(Self.cloudField(result, "Z/n1", "title") == "Groceries")
    }

    @Test func mergeKeepsBothSidesWhenDevicesEditDifferentFields() throws {
        // A renames n1 offline (20 s) while B edits its body offline (25 s); A reconnects first (60 s), then B (70 s).
        let world = try Self.world()
        try world.device("A").airplane(true)
        try world.device("B").airplane(true)
        world.advance(by: .seconds(20) - world.now)
        try world.device("A").recordSave(zone: "Z", type: "Note", name: "n1", fields: ["title": "Shopping"])
        world.advance(by: .seconds(5))
        try world.device("B").recordSave(zone: "Z", type: "Note", name: "n1", fields: ["body": "milk, eggs"])
        world.advance(by: .seconds(35))
        try world.device("A").airplane(false)
        world.advance(by: .seconds(10))
        try world.device("B").airplane(false)
        #expect(world.runUntilQuiescent())
        #expect(world.device("A").view.records["Z/n1"]?["title"] == "Shopping")
        #expect(world.device("A").view.records["Z/n1"]?["body"] == "milk, eggs")
        #expect(world.device("B").view == world.device("A").view)
        // The cloud kept each side's write: A fetched B's body, B got A's title by resolution.
        #expect(Self.shown("A", "Z/n1", "body", in: world).last == "B:1 fetch")
        #expect(Self.shown("B", "Z/n1", "title", in: world).last == "A:3 resolution")
        // One conflict, although B met A's version both by fetch and by serverRecordChanged.
        #expect(Self.events("conflict", in: world).count == 1)
        #expect(Self.events("conflictShown", in: world).map { $0["device"] as? String } == ["B"])
        let result = world.finish()
        #expect(result.metrics.converged)
        #expect(result.anomalies.isEmpty)
    }

    @Test func thePendingQueueSurvivesACrash() throws {
        let world = try Self.world()
        try world.device("A").airplane(true)
        try world.device("A").recordSave(zone: "Z", type: "Note", name: "n2", fields: ["title": "before crash"])
        try world.device("A").crash()
        world.advance(by: .seconds(1))
        try world.device("A").restart()
        #expect(world.device("A").view.records["Z/n2"]?["title"] == "before crash")
        #expect(world.device("B").view.records["Z/n2"] == nil)
        try world.device("A").airplane(false)
        #expect(world.runUntilQuiescent())
        // The save made before the crash is what B fetches: it was still pending after the restart.
        #expect(Self.shown("B", "Z/n2", "title", in: world) == ["A:3 fetch"])
        let result = world.finish()
        #expect(Self.cloudField(result, "Z/n2", "title") == "before crash")
        #expect(result.metrics.converged)
    }
}
