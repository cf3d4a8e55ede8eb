import Foundation
import Testing
import SyncLabJSON
import SyncLabResult
@testable import SyncLabReports
import SyncLabScenario
import SyncLabSimulation
import SyncLabRunner

/// What `synclab run` writes and prints beyond the reports themselves: seeds, variant folders,
/// replay lines, GitHub annotations, JUnit, and the trace check of `synclab report`.
@Suite("Command-line outputs")
struct CLIOutputTests {
    /// The hostile scenario's run, with the seed and variant given.
    static func judged(seed: UInt64, variant: String = "base") throws -> ScenarioRunner.Judged {
        guard case .success(let file) = ScenarioLoader.parse(text: SimulatedRunTests.scenario, path: "hostile.json") else {
            throw CocoaError(.fileReadCorruptFile)
        }
        var run = file.runs[0]
        run.seed = seed
        run.variant = variant
        return ScenarioRunner.run(run)
    }

    static func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("synclab-\(name)-\(ProcessInfo.processInfo.processIdentifier)").path
    }

    // MARK: - Seeds (B7)

    @Test("a seed of 2^63 or more is written unsigned in result.json and the trace's run line", arguments: [
        UInt64(Int64.max) + 1, UInt64.max,
    ])
    func largeSeedsAreWrittenUnsigned(seed: UInt64) throws {
        let judged = try Self.judged(seed: seed)
        let result = ResultDocument.json(judged, file: "hostile.json").renderedPretty()
        #expect(result.contains("\n  \"seed\": \(seed),\n"), "\(result.prefix(300))")
        let firstLine = String(decoding: judged.outcome.trace.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        #expect(firstLine.contains("\"seed\":\(seed)"), "\(firstLine)")
        #expect(!result.contains("\"seed\": -") && !firstLine.contains("\"seed\":-"))
        // The report drawn from the saved files shows the same seed.
        let model = try ReportModel(trace: judged.outcome.trace, result: Array(result.utf8))
        #expect(model.seed == String(seed))
        #expect(TextSummary.render(judged, file: "hostile.json").contains("seed=\(seed)"))
    }

    // MARK: - Variant folders (B8)

    @Test("variants whose names sanitise to one folder, or differ only in case, get distinct folders")
    func variantFoldersAreDistinct() {
        let names = ["base", "a<", "a>", "a_", "Merge", "merge", "BASE", "x"]
        let folders = VariantPaths.folders(for: names)
        #expect(folders == ["base", "a_-2", "a_-3", "a_", "Merge", "merge-2", "BASE-2", "x"])
        #expect(Set(folders.map { $0.lowercased() }).count == names.count)
        // The folders depend on the set of names, not the order they are listed in.
        let reversed = VariantPaths.folders(for: names.reversed())
        #expect(Array(reversed.reversed()) == folders)
        // A suffix never takes a folder a plain name has.
        #expect(VariantPaths.folders(for: ["base", "a<", "a_", "a_-2"]) == ["base", "a_-3", "a_", "a_-2"])
    }

    @Test("colliding variant names write separate reports, and the comparison links each to its own folder")
    func collidingVariantsKeepTheirReports() throws {
        let root = Self.temporary("variants")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let variants = ["base", "a<", "a>", "a_"]
        let runs = try variants.map { try Self.judged(seed: 3, variant: $0) }
        try ReportSet.write(runs, file: "hostile.json", to: root, variants: variants)
        for (variant, folder) in zip(variants, ["base", "a_-2", "a_-3", "a_"]) {
            let result = try String(contentsOfFile: "\(root)/\(folder)/result.json", encoding: .utf8)
            #expect(result.contains("\"variant\": \(JSON.string(variant).rendered())"), "\(folder)")
        }
        let markdown = try String(contentsOfFile: "\(root)/report.md", encoding: .utf8)
        #expect(markdown.contains("(a_-2/report.md)") && markdown.contains("(a_-3/report.md)") && markdown.contains("(a_/report.md)"))
        let page = try String(contentsOfFile: "\(root)/timeline.html", encoding: .utf8)
        #expect(page.contains("href=\"a_-2/timeline.html\">a&lt;</a>"))
        #expect(page.contains("href=\"a_-3/timeline.html\">a&gt;</a>"))
        // Regenerated from the folders, the comparison links the folders found: the same bytes.
        let again = Self.temporary("variants-again")
        defer { try? FileManager.default.removeItem(atPath: again) }
        _ = try SavedRun.regenerate(path: root, out: again)
        for name in ["report.md", "timeline.html"] {
            #expect(try Data(contentsOf: URL(fileURLWithPath: "\(root)/\(name)")) == Data(contentsOf: URL(fileURLWithPath: "\(again)/\(name)")), "\(name)")
        }
    }

    @Test("with --variant, a run goes to the folder a run of every variant gives it")
    func aSelectedVariantKeepsItsFolder() throws {
        let root = Self.temporary("one-variant")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try ReportSet.write([try Self.judged(seed: 3, variant: "a>")], file: "hostile.json", to: root, variants: ["base", "a<", "a>", "a_"])
        #expect(FileManager.default.fileExists(atPath: "\(root)/a_-3/result.json"))
    }

    // MARK: - Replay lines (M3)

    @Test("shell words are bare when plain and single-quoted otherwise", arguments: [
        ("Scenarios/airplane-lost-update.json", "Scenarios/airplane-lost-update.json"),
        ("keepBoth", "keepBoth"),
        ("my scenarios/a b.json", "'my scenarios/a b.json'"),
        ("it's", "'it'\\''s'"),
        ("$(rm -rf ~)", "'$(rm -rf ~)'"),
        ("a;b|c&d", "'a;b|c&d'"),
        ("", "''"),
        ("é", "'é'"),
        ("*", "'*'"),
    ])
    func shellQuoting(text: String, quoted: String) {
        #expect(ReplayCommand.shellQuoted(text) == quoted)
    }

    @Test("the replay line quotes the file and the variant")
    func replayLineQuotes() throws {
        #expect(ReplayCommand.render(file: "my dir/x.json", seed: UInt64.max, variant: "it's") ==
                "swift run synclab run 'my dir/x.json' --seed 18446744073709551615 --variant 'it'\\''s'")
        #expect(ReplayCommand.render(file: "x.json", seed: 7, variant: nil) == "swift run synclab run x.json --seed 7")
        let summary = TextSummary.render(try Self.judged(seed: 3, variant: "a b"), file: "my dir/hostile.json")
        #expect(summary.contains("replay: swift run synclab run 'my dir/hostile.json' --seed 3 --variant 'a b'"), "\(summary)")
    }

    // MARK: - GitHub annotations (B10)

    @Test("annotation messages escape % CR LF; property values also : and ,")
    func annotationEscaping() {
        #expect(GitHubAnnotation.escapeData("50% done\r\nnext: a,b") == "50%25 done%0D%0Anext: a,b")
        #expect(GitHubAnnotation.escapeProperty("50% done\r\nnext: a,b") == "50%25 done%0D%0Anext%3A a%2Cb")
        #expect(GitHubAnnotation.escapeData("%0A") == "%250A")
        #expect(GitHubAnnotation.error("line1\nline2", file: "dir,x/a:b.json", line: 3, column: 7, title: "t [v,1]") ==
                "::error file=dir%2Cx/a%3Ab.json,line=3,col=7,title=t [v%2C1]::line1%0Aline2")
        #expect(GitHubAnnotation.error("m") == "::error::m")
    }

    // MARK: - JUnit (A5)

    @Test("a file that did not validate is a JUnit test case in error, beside the runs of valid files")
    func junitInvalidFile() throws {
        let errors = [ScenarioError(file: "bad <1>.json", position: SourcePosition(line: 2, column: 5), path: "steps[0].op", message: "unknown op 'kvs.sett'")]
        let xml = JUnitReport.render([.invalid(file: "bad <1>.json", errors: errors), .run(file: "hostile.json", judged: try Self.judged(seed: 3))])
        #expect(WellFormedXML.problem(xml) == nil, "\(xml)")
        #expect(xml.contains("<testsuites name=\"synclab\" tests=\"2\" failures=\"1\" errors=\"1\">"))
        #expect(xml.contains("<testsuite name=\"bad &lt;1&gt;.json\" file=\"bad &lt;1&gt;.json\" tests=\"1\" failures=\"0\" errors=\"1\">"))
        #expect(xml.contains("<testcase classname=\"bad &lt;1&gt;.json\" name=\"validation\" file=\"bad &lt;1&gt;.json\">"))
        #expect(xml.contains("<error message=\"1 validation error: the scenario did not run\" type=\"validation\">bad &lt;1&gt;.json:2:5: steps[0].op: unknown op &#39;kvs.sett&#39;</error>"))
    }

    // MARK: - synclab report (A6)

    @Test("synclab report refuses a trace from another run than its result.json")
    func reportRefusesAMismatchedTrace() throws {
        let root = Self.temporary("mismatch")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try ReportWriter.write(try Self.judged(seed: 3), file: "hostile.json", to: "\(root)/one")
        try ReportWriter.write(try Self.judged(seed: 4), file: "hostile.json", to: "\(root)/two")
        try FileManager.default.removeItem(atPath: "\(root)/one/trace.jsonl")
        try FileManager.default.copyItem(atPath: "\(root)/two/trace.jsonl", toPath: "\(root)/one/trace.jsonl")
        do {
            _ = try SavedRun.regenerate(path: "\(root)/one/result.json", out: "\(root)/out")
            Issue.record("a trace of another run was accepted")
        } catch {
            #expect(error.message.contains("is not the trace of \(root)/one/result.json"), "\(error.message)")
            #expect(error.message.contains("different runs"))
        }
        #expect(!FileManager.default.fileExists(atPath: "\(root)/out/timeline.html"))
        // Its own trace is accepted.
        #expect(try SavedRun.regenerate(path: "\(root)/two", out: nil) == ["\(root)/two"])
    }
}
