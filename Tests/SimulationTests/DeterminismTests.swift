import Foundation
import Testing

@Suite("Determinism across processes", .serialized)
struct DeterminismTests {
    static let scenarios = ["Scenarios/airplane-lost-update.json"]

    @Test("the same scenario and seed in two processes give byte-identical traces and results", arguments: scenarios)
    func twoProcessesSameBytes(scenario: String) throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try Synclab.run(["run", scenario, "--out", directory.appendingPathComponent("one").path, "--quiet"])
        let second = try Synclab.run(["run", scenario, "--out", directory.appendingPathComponent("two").path, "--quiet"])
        #expect(first.status == second.status)
        let files = try FileManager.default.subpathsOfDirectory(atPath: directory.appendingPathComponent("one").path).sorted()
        #expect(files.contains { $0.hasSuffix("trace.jsonl") })
        #expect(files.contains { $0.hasSuffix("result.json") })
        for file in files {
            var isDirectory: ObjCBool = false
            let one = directory.appendingPathComponent("one").appendingPathComponent(file)
            _ = FileManager.default.fileExists(atPath: one.path, isDirectory: &isDirectory)
            if isDirectory.boolValue { continue }
            let a = try Data(contentsOf: one)
            let b = try Data(contentsOf: directory.appendingPathComponent("two").appendingPathComponent(file))
            #expect(a == b, "\(file) differs between two processes")
            #expect(!a.isEmpty)
        }
    }
}
