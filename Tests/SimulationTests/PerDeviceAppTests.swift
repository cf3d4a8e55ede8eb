import Foundation
import Testing
import SyncLabScenario
@testable import SyncLabSimulation

/// `apps` in scenario files (SPEC §9): each device runs the app named for it.
@Suite("Scenario files name apps, per device")
struct PerDeviceAppTests {
    /// A renames offline, B edits the body offline; A reconnects first, so only B's save meets
    /// `serverRecordChanged` and only B's app decides. `extra` adds top-level members; `deviceB`
    /// adds members to B's device entry.
    static func recordScenario(_ extra: String, deviceA: String = "", deviceB: String = "") -> String {
        """
        {"format": "synclab/1", "name": "per-device records apps", "seed": 21, \(extra)
         "devices": [{"id": "A"\(deviceA)}, {"id": "B"\(deviceB)}],
         "steps": [
           {"at": "0s", "device": ["A", "B"], "op": "zone.create", "zone": "Notes"},
           {"at": "1s", "device": "A", "op": "record.save", "zone": "Notes", "type": "Note", "name": "n1", "fields": {"title": "Groceries", "body": "milk"}},
           {"at": "10s", "device": ["A", "B"], "op": "airplane.on"},
           {"at": "20s", "device": "A", "op": "record.save", "zone": "Notes", "type": "Note", "name": "n1", "fields": {"title": "Shopping"}},
           {"at": "25s", "device": "B", "op": "record.save", "zone": "Notes", "type": "Note", "name": "n1", "fields": {"body": "milk, eggs"}},
           {"at": "60s", "device": "A", "op": "airplane.off"},
           {"at": "70s", "device": "B", "op": "airplane.off"}
         ]}
        """
    }

    /// The final cloud record `Notes/n1` as (title, body).
    static func finalNote(_ text: String) throws -> (title: String, body: String) {
        let judged = try Harness.run(text)
        let final = judged.outcome.history.finalCloud.first ?? []
        func field(_ name: String) -> String {
            let value = final.first(where: { $0.item.name == "Notes/n1" && $0.item.field == name })?.value
            if case .field(.string(let text))? = value { return text }
            return "?"
        }
        return (field("title"), field("body"))
    }

    @Test("a device's app overrides the top level's: B's clientWins writes its stale title back")
    func deviceOverridesTopLevel() throws {
        let note = try Self.finalNote(Self.recordScenario(#""apps": {"records": "serverWins"},"#, deviceB: #", "apps": {"records": "clientWins"}"#))
        #expect(note.title == "Groceries" && note.body == "milk, eggs")
    }

    @Test("only the device that meets the conflict decides: B's serverWins drops its body edit, whatever A runs")
    func theConflictedDeviceDecides() throws {
        let note = try Self.finalNote(Self.recordScenario(#""apps": {"records": "clientWins"},"#, deviceA: #", "apps": {"records": "clientWins"}"#,
                                                          deviceB: #", "apps": {"records": "serverWins"}"#))
        #expect(note.title == "Shopping" && note.body == "milk")
        let onlyA = try Self.finalNote(Self.recordScenario(#""engine": {"records": {"conflict": "serverWins"}},"#, deviceA: #", "apps": {"records": "clientWins"}"#))
        #expect(onlyA.title == "Shopping" && onlyA.body == "milk")
    }

    @Test("an app named in apps takes precedence over engine.records.conflict")
    func appsOverEngine() throws {
        let note = try Self.finalNote(Self.recordScenario(#""engine": {"records": {"conflict": "clientWins"}}, "apps": {"records": "merge"},"#))
        #expect(note.title == "Shopping" && note.body == "milk, eggs")
    }

    @Test("default names the store's default app: the engine section's policy")
    func defaultMeansEngineSetting() throws {
        let note = try Self.finalNote(Self.recordScenario(#""engine": {"records": {"conflict": "clientWins"}}, "apps": {"records": "serverWins"},"#,
                                                          deviceB: #", "apps": {"records": "default"}"#))
        #expect(note.title == "Groceries" && note.body == "milk, eggs")
    }

    /// A runs merge, B lastWriterWins; both edit offline and `last` reconnects last, so its
    /// upload makes the conflict and its app resolves it first.
    static func documentScenario(last: String) -> String {
        let first = last == "A" ? "B" : "A"
        return """
        {"format": "synclab/1", "name": "per-device documents apps", "seed": 3,
         "apps": {"documents": "lastWriterWins"},
         "devices": [{"id": "A", "apps": {"documents": "merge"}}, {"id": "B"}],
         "steps": [
           {"at": "0s", "device": "A", "op": "doc.save", "path": "n.txt", "content": "one\\n"},
           {"at": "10s", "device": ["A", "B"], "op": "airplane.on"},
           {"at": "20s", "device": "A", "op": "doc.save", "path": "n.txt", "content": "one\\nA\\n"},
           {"at": "30s", "device": "B", "op": "doc.save", "path": "n.txt", "content": "one\\nB\\n"},
           {"at": "60s", "device": "\(first)", "op": "airplane.off"},
           {"at": "90s", "device": "\(last)", "op": "airplane.off"}
         ]}
        """
    }

    @Test("documents: A runs merge while B runs lastWriterWins, each on the conflicts it resolves", arguments: ["A", "B"])
    func documentsPerDevice(last: String) throws {
        let judged = try Harness.run(Self.documentScenario(last: last))
        let conflicts = try Harness.events(judged).filter { $0.event == "log" && $0.string("event") == "conflict" && $0.string("store") == "documents" }
        func policy(_ line: TraceLine) -> String? {
            guard case .object(let details)? = line.fields["details"],
                  case .string(let name)? = details.first(where: { $0.key == "policy" })?.value.value else { return nil }
            return name
        }
        let policies = Dictionary(grouping: conflicts, by: { $0.string("device") ?? "?" }).mapValues { Set($0.compactMap(policy)) }
        #expect(policies[last] == [last == "A" ? "merge" : "lastWriterWins"], "\(conflicts.map(\.fields))")
        #expect(policies["A"].map { $0 == ["merge"] } ?? true && policies["B"].map { $0 == ["lastWriterWins"] } ?? true)
        let final = judged.outcome.history.finalCloud.first?.first { $0.item.name == "n.txt" }?.value
        if last == "A" {
            // A's merge keeps both edits (between conflict markers, as both changed one line).
            guard case .document(.text(let merged))? = final else { Issue.record("no merged text: \(String(describing: final))"); return }
            #expect(merged.contains("\nA\n") && merged.contains("\nB\n") && merged.contains("<<<<<<<"), "\(merged)")
            #expect(judged.outcome.report.lostUpdates == 0)
        } else {
            // B's lastWriterWins keeps one version and removes the other: an edit is lost.
            #expect(judged.outcome.report.lostUpdates >= 1)
        }
    }
}

@Suite("The command line refuses unknown apps", .serialized)
struct UnknownAppCommandLineTests {
    @Test("run and validate exit 2 naming the file, position, path and the known apps; nothing runs")
    func unknownAppExitsTwo() throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("unknown-app.json")
        try Data(#"{"format": "synclab/1", "name": "x", "apps": {"records": "TodoApp"}, "devices": [{"id": "A"}]}"#.utf8).write(to: url)
        for command in ["run", "validate"] {
            let output = try Synclab.run([command, url.path, "--out", directory.appendingPathComponent("out").path].prefix(command == "run" ? 4 : 2).map { $0 })
            #expect(output.status == 2)
            #expect(output.stderr.contains("unknown-app.json:1:"), "\(output.stderr)")
            #expect(output.stderr.contains(#"apps.records: unknown records app "TodoApp""#), "\(output.stderr)")
            #expect(output.stderr.contains(#""serverWins", "clientWins", "merge", "ServerWinsRecordsApp", "ClientWinsRecordsApp", "MergeRecordsApp", "default""#), "\(output.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out").path))
    }
}
