import Foundation
import Testing

/// A scenario whose output folder cannot take its reports (a folder where `timeline.html` goes)
/// among several: said on stderr with the path in the way, the other files still run and write
/// theirs, `--junit` and `--format json` still come out, and the exit status is 2. The command
/// used to stop at that file: no later file ran, no JUnit file, no JSON document.
@Suite("A folder that cannot take its reports among several", .serialized)
struct ReportsNotWrittenTests {
    @Test("the other files run, JUnit lists a `reports` case in error, JSON lists every run, exit 2")
    func otherFilesStillRun() throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = directory.appendingPathComponent("first.json").path, second = directory.appendingPathComponent("second.json").path
        try Data(CommandLineTests.validScenario().utf8).write(to: URL(fileURLWithPath: first))
        try Data(CommandLineTests.validScenario().replacingOccurrences(of: "\"tiny\"", with: "\"other\"").utf8).write(to: URL(fileURLWithPath: second))
        let out = directory.appendingPathComponent("out").path, junit = directory.appendingPathComponent("junit.xml").path
        // A folder where first.json's timeline goes.
        try FileManager.default.createDirectory(atPath: out + "/first/timeline.html", withIntermediateDirectories: true)

        let text = try Synclab.run(["run", first, second, "--out", out, "--junit", junit], environment: ["GITHUB_ACTIONS": "true"])
        #expect(text.status == 2, "\(text.stdout)\n\(text.stderr)")
        #expect(text.stderr.contains("cannot write reports to \(out)/first: \(out)/first/timeline.html is a folder, not a file"), "\(text.stderr)")
        #expect(text.stdout.contains("PASS  other [base]"), "\(text.stdout)")
        #expect(text.stdout.contains("::error file=\(first.replacingOccurrences(of: ":", with: "%3A")),title=reports not written::cannot write reports to \(out)/first: "), "\(text.stdout)")
        #expect(FileManager.default.fileExists(atPath: out + "/second/report.md"))
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("<testsuites name=\"synclab\" tests=\"3\" failures=\"0\" errors=\"1\">"), "\(xml)")
        #expect(xml.contains("name=\"reports\" file=\"\(first)\""), "\(xml)")
        #expect(xml.contains("type=\"reports\""))

        let json = try Synclab.run(["run", first, second, "--out", out, "--format", "json"])
        #expect(json.status == 2)
        #expect(json.stdout.components(separatedBy: "\"variant\": \"base\"").count == 3, "\(json.stdout)")
    }
}
