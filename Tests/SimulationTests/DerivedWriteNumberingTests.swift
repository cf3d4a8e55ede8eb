import Testing
@testable import SyncLabSimulation

/// Writes engines make on their own (merges, conflict copies) are numbered by the device, not by
/// each engine: two stores, or an app reinstalled from scratch, must never give one id twice, or
/// the checker would take two different writes for one.
@Suite("Engine-made write ids")
struct DerivedWriteNumberingTests {
    @Test("merges by the documents and records engines of one device, before and after a reinstall, all get distinct ids")
    func derivedWriteIDsNeverRepeat() throws {
        let judged = try Harness.run("""
        {"format": "synclab/1", "name": "t", "engine": {"documents": {"conflict": "merge"}, "records": {"conflict": "merge"}},
         "devices": [{"id": "A"}, {"id": "B"}],
         "steps": [
           {"at": "0s", "device": ["A", "B"], "op": "zone.create", "zone": "Z"},
           {"at": "1s", "device": "A", "op": "doc.save", "path": "n.txt", "content": "a\\nb\\nc\\n"},
           {"at": "1s", "device": "A", "op": "record.save", "zone": "Z", "type": "T", "name": "r", "fields": {"x": "0", "y": "0"}},
           {"at": "10s", "device": "B", "op": "airplane.on"},
           {"at": "11s", "device": "B", "op": "doc.save", "path": "n.txt", "content": "a\\nb\\nc B\\n"},
           {"at": "11s", "device": "B", "op": "record.save", "zone": "Z", "type": "T", "name": "r", "fields": {"y": "S"}},
           {"at": "12s", "device": "A", "op": "doc.save", "path": "n.txt", "content": "a A\\nb\\nc\\n"},
           {"at": "12s", "device": "A", "op": "record.save", "zone": "Z", "type": "T", "name": "r", "fields": {"x": "A", "y": "S"}},
           {"at": "20s", "device": "B", "op": "airplane.off"},
           {"at": "60s", "device": "B", "op": "app.delete"},
           {"at": "61s", "device": "B", "op": "app.install"},
           {"at": "70s", "device": "B", "op": "airplane.on"},
           {"at": "71s", "device": "B", "op": "doc.save", "path": "n.txt", "content": "a A\\nb 2\\nc B\\n"},
           {"at": "72s", "device": "A", "op": "doc.save", "path": "n.txt", "content": "a A\\nb\\nc B\\nd\\n"},
           {"at": "80s", "device": "B", "op": "airplane.off"}],
         "expect": {"converged": true, "lostUpdates": 0}}
        """)
        #expect(judged.passed, "\(judged.expectations.filter { !$0.passed })")
        let derived = try Harness.events(judged).filter { $0.event == "derivedWrite" }
        let ids = derived.compactMap { line in line.string("write").map { "\(line.string("device") ?? "?")/\($0)" } }
        #expect(derived.count >= 2)
        #expect(Set(ids).count == ids.count, "\(ids)")
        // Both stores made writes on B, and B made one after its reinstall.
        let onB = derived.filter { $0.string("device") == "B" }
        #expect(Set(onB.compactMap { $0.string("store") }).count == 2)
        #expect(onB.contains { $0.time > 61_000_000 })
    }
}
