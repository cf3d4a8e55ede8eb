import Foundation
import SyncLabJSON
import SyncLabKernel
import SyncLabProtocol
import Testing
@testable import SyncLabScenario

@Suite("The SPEC §5 example and the shipped scenarios")
struct SpecExampleTests {
    static let example = """
    {
      "format": "synclab/1",
      "name": "airplane-mode lost update",
      "description": "A edits offline, B edits online, A reconnects and saves: under lastWriterWins an edit is lost.",
      "seed": 7,
      "network": { "latency": {"dist": "uniform", "min": "20ms", "max": "120ms"} },
      "engine": { "documents": { "conflict": "lastWriterWins" } },
      "devices": [ {"id": "A"}, {"id": "B", "clock": {"offset": "-2s"}} ],
      "steps": [
        {"at": "0s",  "device": "A", "op": "doc.save", "path": "note.txt", "content": "v1\\n"},
        {"at": "10s", "device": "A", "op": "airplane.on"},
        {"at": "20s", "device": "A", "op": "doc.save", "path": "note.txt", "content": "v1\\nA offline\\n"},
        {"at": "30s", "device": "B", "op": "doc.save", "path": "note.txt", "content": "v1\\nB online\\n"},
        {"at": "60s", "device": "A", "op": "airplane.off"},
        {"at": "70s", "device": "A", "op": "doc.save", "path": "note.txt", "content": "v1\\nA offline\\nA again\\n"}
      ],
      "expect": { "converged": true, "lostUpdates": {"min": 1} },
      "variants": [ {"name": "merge", "engine": {"documents": {"conflict": "merge"}},
                     "expect": {"converged": true, "lostUpdates": 0}} ]
    }
    """

    @Test func theExampleResolvesToTwoRuns() throws {
        let file = try #require(Load.file(SpecExampleTests.example))
        #expect(file.name == "airplane-mode lost update")
        #expect(file.path == "t.json")
        #expect(file.runs.map(\.variant) == ["base", "merge"])
        let base = file.runs[0]
        #expect(base.seed == 7)
        #expect(base.duration == .seconds(86_400))
        #expect(base.accounts == ["main"])
        #expect(base.environment == .development)
        #expect(base.engine.documents.conflict == .lastWriterWins)
        #expect(base.engine.documents.winner == .modificationDate)
        #expect(base.engine.records.conflict == .merge)
        #expect(base.network.latency == .uniform(min: .milliseconds(20), max: .milliseconds(120)))
        #expect(base.network.pushLatency == .fixed(.milliseconds(100)))
        #expect(base.devices.map(\.id) == ["A", "B"])
        #expect(base.devices[1].clockOffset == .seconds(-2))
        #expect(base.devices[1].link.latency == .uniform(min: .milliseconds(20), max: .milliseconds(120)))
        #expect(base.devices.allSatisfy { $0.online && $0.account == 0 })
        #expect(base.steps.map(\.op.name) == ["doc.save", "airplane.on", "doc.save", "doc.save", "airplane.off", "doc.save"])
        #expect(base.steps.map(\.at.microseconds) == [0, 10, 20, 30, 60, 70].map { $0 * 1_000_000 })
        #expect(base.steps.map(\.devices) == [[0], [0], [0], [1], [0], [0]])
        #expect(base.steps[3].source == "steps[3]")
        guard case .docSave(let path, .text(let content)) = base.steps[2].op else { Issue.record("steps[2] is not a doc.save"); return }
        #expect(path == "note.txt")
        #expect(content == "v1\nA offline\n")
        #expect(base.expect.converged == true)
        #expect(base.expect.lostUpdates == CountExpectation(min: 1, max: nil))
        #expect(base.end.heal)
        #expect(base.end.settle == .seconds(3600))

        let merge = file.runs[1]
        #expect(merge.engine.documents.conflict == .merge)
        #expect(merge.network.latency == base.network.latency)
        #expect(merge.expect.lostUpdates == .exactly(0))
        #expect(merge.steps.count == 6)
        #expect(merge.description == base.description)
    }

    /// Every scenario shipped in `Scenarios/` validates.
    @Test func everyShippedScenarioLoads() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = root.appendingPathComponent("Scenarios")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".json") || $0.hasSuffix(".json5") }.sorted()
        for name in names {
            let result = ScenarioLoader.load(path: folder.appendingPathComponent(name).path)
            if case .failure(let errors) = result { Issue.record("\(name):\n\(errors)") }
        }
    }

    @Test func aMissingFileIsAnError() {
        guard case .failure(let errors) = ScenarioLoader.load(path: "/nonexistent/synclab/x.json") else { Issue.record("loaded"); return }
        #expect(errors.errors.count == 1)
        #expect(errors.errors[0].description == "/nonexistent/synclab/x.json: (root): no such file")
    }
}

@Suite("Robustness")
struct RobustnessTests {
    /// Every prefix of a valid file, and the file with each character replaced, is valid or gives
    /// errors — never a crash, never a failure without an error.
    @Test func truncatedAndCorruptedFilesNeverCrash() {
        let bytes = Array(SpecExampleTests.example.utf8)
        for length in stride(from: 0, to: bytes.count, by: 3) {
            if case .failure(let errors) = ScenarioLoader.parse(bytes: Array(bytes[..<length]), path: "p.json") {
                #expect(!errors.errors.isEmpty)
            }
        }
        for index in stride(from: 0, to: bytes.count, by: 7) {
            for replacement in [UInt8(ascii: "x"), UInt8(ascii: "-"), UInt8(ascii: "{"), UInt8(ascii: "\""), 0xFF] {
                var corrupted = bytes
                corrupted[index] = replacement
                if case .failure(let errors) = ScenarioLoader.parse(bytes: corrupted, path: "p.json") {
                    #expect(!errors.errors.isEmpty)
                }
            }
        }
    }
}
