import Foundation
import Testing

/// Under `GITHUB_ACTIONS=true` a failed expectation's `::error` names the line and column of
/// the `expect` entry that failed (a variant's own `expect` for its runs), so the annotation
/// shows on that line of a pull request; it named the file only.
@Suite("The annotation of a failed expectation", .serialized)
struct ExpectationAnnotationLineTests {
    @Test("points at the entry: a count's key, a pattern, a final item, a notification; a variant's at its own expect")
    func pointsAtTheEntry() throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("lines.json").path
        try Data("""
        {"format": "synclab/1", "name": "lines", "devices": [{"id": "A"}, {"id": "B"}],
         "steps": [{"at": "1s", "device": "A", "op": "kvs.set", "key": "k", "value": 1}],
         "expect": {
           "lostUpdates": 3,
           "anomalies": [{"kind": "resurrection"}],
           "final": {"kvs": {"k": 2}},
           "notifications": [{"device": "A", "reason": "serverChange"}]
         },
         "variants": [{"name": "v",
           "expect": {"conflicts": 4}}]}
        """.utf8).write(to: URL(fileURLWithPath: file))
        let output = try Synclab.run(["run", file, "--out", directory.appendingPathComponent("out").path], environment: ["GITHUB_ACTIONS": "true"])
        #expect(output.status == 1)
        let escaped = file.replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
        for (line, column, message) in [(4, 4, "lostUpdates: wanted 3, got 0"), (5, 18, "anomalies[0]: wanted an anomaly matching"),
                                        (6, 22, "final.kvs.k: wanted 2, got 1"), (7, 22, "notifications[0] A serverChange: wanted"),
                                        (10, 15, "conflicts: wanted 4, got 0")] {
            #expect(output.stdout.contains("::error file=\(escaped),line=\(line),col=\(column),title=lines ["), "\(line): \(output.stdout)")
            #expect(output.stdout.contains(",line=\(line),col=\(column),title=lines [\(line == 10 ? "v" : "base")]::\(message)"), "\(message): \(output.stdout)")
        }
    }
}
