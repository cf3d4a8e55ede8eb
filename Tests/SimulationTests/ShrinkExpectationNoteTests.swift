import Foundation
import Testing

/// `synclab shrink` on a file whose failure is an expectation keeps that expectation failing,
/// which can drop the cause: README's coffee counter (`final.kvs.cups` 2, one increment lost)
/// shrank to one device and one increment, still "wanted 2, got 1", its lost update gone, and
/// said nothing. It now says which anomalies the minimal run lost, and how to keep one.
@Suite("synclab shrink says when a failed expectation's minimal run lost the original's anomalies")
struct ShrinkExpectationNoteTests {
    static let coffee = #"""
    {"format": "synclab/1", "name": "coffee counter",
     "devices": [{"id": "phone"}, {"id": "watch", "online": false}],
     "steps": [{"at": "10s", "device": "phone", "op": "kvs.increment", "key": "cups"},
               {"at": "20s", "device": "watch", "op": "kvs.increment", "key": "cups"},
               {"at": "60s", "device": "watch", "op": "airplane.off"}],
     "expect": {"final": {"kvs": {"cups": 2}}}}
    """#

    @Test("the coffee counter's shrink names the lost update it dropped and the --anomaly that keeps it")
    func notesTheDroppedCause() throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.coffee.write(to: directory.appendingPathComponent("coffee.json"), atomically: true, encoding: .utf8)
        let output = try Synclab.run(["shrink", "coffee.json", "--out", "min"], in: directory)
        #expect(output.status == 1, "\(output.stderr)")
        #expect(output.stdout.contains("note: the minimal run keeps final.kvs.cups failing but no longer shows lostUpdate, which the original showed; to keep it: synclab shrink coffee.json --anomaly lostUpdate"),
                "\(output.stdout)")
        let kept = try Synclab.run(["shrink", "coffee.json", "--anomaly", "lostUpdate", "--out", "min2"], in: directory)
        #expect(kept.status == 1 && !kept.stdout.contains("note:"), "\(kept.stdout)")
    }
}
