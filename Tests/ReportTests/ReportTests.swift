import Foundation
import Testing
@testable import SyncLabReports
import SyncLabJSON
import SyncLabScenario
import SyncLabSimulation

@Suite("Timeline and Markdown reports")
struct ReportTests {
    static func airplane() throws -> ReportModel {
        let saved = try Golden.fixture("airplane")
        return try ReportModel(trace: saved.trace, result: saved.result)
    }

    @Test("the airplane run renders exactly its golden timeline.html and report.md")
    func airplaneGoldens() throws {
        let model = try Self.airplane()
        Golden.check(TimelinePage.render(model), named: "airplane.timeline.html")
        Golden.check(MarkdownReport.render(model), named: "airplane.report.md")
    }

    @Test("the hostile run renders exactly its golden timeline.html and report.md")
    func hostileGoldens() throws {
        let saved = HostileRun.make()
        let model = try ReportModel(trace: saved.trace, result: saved.result)
        Golden.check(TimelinePage.render(model), named: "hostile.timeline.html")
        Golden.check(MarkdownReport.render(model), named: "hostile.report.md")
    }

    @Test("the timeline page and every SVG in it are well-formed XML")
    func wellFormed() throws {
        let page = TimelinePage.render(try Self.airplane())
        #expect(WellFormedXML.problem(page) == nil, "\(WellFormedXML.problem(page) ?? "")")
        let svgs = WellFormedXML.svgs(in: page)
        #expect(svgs.count > 1)
        for svg in svgs { #expect(WellFormedXML.problem(svg) == nil, "\(svg.prefix(120))") }
    }

    @Test("the timeline says who was offline when, which write was lost, to which, and why")
    func airplaneStory() throws {
        let page = TimelinePage.render(try Self.airplane())
        #expect(page.contains("offline 10s–1m 0s"))
        #expect(page.contains("A:2 lost to B:1"))
        #expect(page.contains("class=\"lost-link\""))
        #expect(page.contains("was lost: the conflict was resolved by last-writer-wins"))
        #expect(page.contains("while A was offline (from 10s to 1m 0s)"))
        #expect(page.contains("clock -2s"))
        #expect(page.contains("class=\"fold\""))
    }

    @Test("hostile names and values are escaped in the page, the SVG and the Markdown")
    func hostileEscaping() throws {
        let saved = HostileRun.make()
        let model = try ReportModel(trace: saved.trace, result: saved.result)
        let page = TimelinePage.render(model)
        let lowered = page.lowercased()
        #expect(!lowered.contains("<script"))
        #expect(!lowered.contains("<img"))
        #expect(!lowered.contains("<b>v</b>"))
        #expect(!page.contains("\u{7}"))
        #expect(WellFormedXML.problem(page) == nil, "\(WellFormedXML.problem(page) ?? "")")
        for svg in WellFormedXML.svgs(in: page) { #expect(WellFormedXML.problem(svg) == nil) }
        #expect(page.contains("&lt;script&gt;"))

        let markdown = MarkdownReport.render(model).lowercased()
        // Outside code spans (which Markdown shows literally), no markup survives.
        let prose = markdown.replacingOccurrences(of: "\\`", with: "").replacingOccurrences(of: "`[^`\n]*`", with: "", options: .regularExpression)
        #expect(!prose.contains("<script"))
        #expect(!prose.contains("<img"))
        let mermaid = markdown.components(separatedBy: "```mermaid")[1].components(separatedBy: "```")[0]
        for line in mermaid.split(separator: "\n").dropFirst() {
            #expect(!line.contains(";") && !line.contains("<") && !line.contains("#"), "\(line)")
        }
        let index = TimelinePage.renderIndex([model])
        #expect(!index.lowercased().contains("<script"))
        #expect(WellFormedXML.problem(index) == nil)
    }

    @Test("a variant's folder name never leaves the output folder")
    func variantFolders() {
        #expect(VariantPaths.folder("keepBoth") == "keepBoth")
        #expect(!VariantPaths.folder("../../etc").contains("/"))
        #expect(VariantPaths.folder("..") != "..")
        #expect(VariantPaths.folder("<script>") == "_script_")
    }

    @Test("the variant index compares every variant, links each, and shows the base run in full")
    func variantIndex() throws {
        let base = try Self.airplane()
        var merge = base
        merge.variant = "merge"
        merge.anomalies = []
        merge.metrics = merge.metrics.map { $0.0 == "lostUpdates" ? ($0.0, "0") : $0 }
        let ordered = ReportSet.ordered([merge, base])
        #expect(ordered.map(\.variant) == ["base", "merge"])
        let page = TimelinePage.renderIndex(ordered)
        #expect(page.contains("href=\"merge/timeline.html\""))
        #expect(page.contains("href=\"base/timeline.html\""))
        #expect(page.contains("A:2 lost to B:1"))
        #expect(WellFormedXML.problem(page) == nil)
        let markdown = MarkdownReport.renderIndex(ordered)
        // Writes first, then lost updates (every metric is a column, in RESULT's order).
        #expect(markdown.contains("| [merge](merge/report.md) | \(merge.metric("writes")) | 0 |"))
        #expect(markdown.contains("| [base](base/report.md) | \(base.metric("writes")) | 1 |"))
        #expect(markdown.contains("```mermaid"))
        #expect(markdown.contains("was lost: the conflict was resolved"))
    }

    @Test("reports written for a run and regenerated by synclab report are byte-identical")
    func regenerationIsByteIdentical() throws {
        let saved = try Golden.fixture("airplane")
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("synclab-report-\(ProcessInfo.processInfo.processIdentifier)")
        defer { try? FileManager.default.removeItem(at: root) }
        let first = root.appendingPathComponent("run").path, second = root.appendingPathComponent("again").path
        try FileManager.default.createDirectory(atPath: first, withIntermediateDirectories: true)
        try Data(saved.trace).write(to: URL(fileURLWithPath: first + "/trace.jsonl"))
        try Data(saved.result).write(to: URL(fileURLWithPath: first + "/result.json"))
        try ReportWriter.writeRendered(trace: saved.trace, result: saved.result, to: first)
        let written = try SavedRun.regenerate(path: first + "/trace.jsonl", out: second)
        #expect(written == [second])
        for name in ["timeline.html", "report.md", "trace.jsonl", "result.json"] {
            let a = try Data(contentsOf: URL(fileURLWithPath: first + "/" + name))
            let b = try Data(contentsOf: URL(fileURLWithPath: second + "/" + name))
            #expect(a == b, "\(name) differs")
        }
        #expect(throws: SavedRun.Failure.self) { _ = try SavedRun.regenerate(path: root.appendingPathComponent("missing").path, out: nil) }
    }

    @Test("saved trace lines read with JSONText's reader render back to the same bytes")
    func savedJSONRoundTrip() throws {
        let saved = try Golden.fixture("airplane")
        let text = String(decoding: saved.trace, as: UTF8.self)
        for line in text.split(separator: "\n") {
            #expect(try JSON5Reader.parse(String(line)).compactText == String(line))
        }
        #expect(try JSON5Reader.parse(#"[0.5,1.0e-05,-3,"a\u00e9\b\u0001",{"k":null}]"#).compactText == #"[0.5,1.0e-05,-3,"aé\b\u0001",{"k":null}]"#)
    }

    @Test("trace lines of events no report draws are passed over unparsed, and blank lines ignored")
    func unusedTraceLinesSkipped() throws {
        let trace = Array("""
        {"t_us":0,"ev":"visible",this is not JSON
        {"t_us":1,"ev":"log",neither is this

        {"t_us":2,"ev":"op","device":"A"}
        {"t_us":3,"ev":"logout","device":"A"}

        """.utf8)
        var events: [String?] = []
        try ReportModel.forEachLine(trace) { events.append($0.string("ev")) }
        #expect(events == ["op", "logout"])
    }

    @Test("a malformed trace line the report needs is an error naming its line")
    func malformedTraceLineNamed() {
        let trace = Array("{\"t_us\":0,\"ev\":\"log\"}\n{\"t_us\":1,\"ev\":\"op\",}x\n".utf8)
        #expect {
            try ReportModel.forEachLine(trace) { _ in }
        } throws: { error in
            (error as? ReportModel.ReadError)?.message.hasPrefix("trace.jsonl line 2: ") == true
        }
        #expect(throws: ReportModel.ReadError.self) { _ = try ReportModel(trace: [], result: Array("{\"a\":}".utf8)) }
    }

    @Test("a read error says its message where the CLI prints it (localizedDescription), not Foundation's placeholder")
    func readErrorLocalizedDescription() {
        do {
            _ = try ReportModel(trace: [], result: Array("{\"a\":}".utf8))
            Issue.record("no error")
        } catch {
            let any: any Error = error
            #expect(any.localizedDescription.hasPrefix("result.json: "), "\(any.localizedDescription)")
        }
    }

    @Test("a busy 50-device, one-day run stays under 5 MB: idle time folded, traffic and frequent marks as density strips")
    func bigRunStaysSmall() throws {
        // 50 devices, a write each an hour, pushed to 10 others, a cloud decision each: ~80k trace lines.
        let saved = SyntheticRun.make(devices: 50, duration: 86_400_000_000, writeEvery: 3_600_000_000, fanOut: 10)
        let model = try ReportModel(trace: saved.trace, result: saved.result)
        #expect(model.anomalies.count == 25)
        let page = TimelinePage.render(model)
        #expect(page.utf8.count < 5_000_000, "timeline.html is \(page.utf8.count) bytes")
        #expect(page.contains("class=\"density\""))
        #expect(page.contains("class=\"mark-density lastWriterWins\""))
        // Arrows only for the anomalies' stories: at most four per anchor (3 anchors per anomaly).
        let arrows = page.components(separatedBy: "<g class=\"msg\">").count - 1
        #expect(arrows > 0 && arrows <= 25 * 3 * 4, "\(arrows) arrows drawn")
        #expect(WellFormedXML.problem(page) == nil)
        let markdown = MarkdownReport.render(model)
        #expect(markdown.split(separator: "\n").count < 200)
        #expect(markdown.contains("… and 5 more (5 lostUpdate): every one is in `result.json`"))
    }

    @Test("on a crowded lane the story of an anomaly is the upload that carried each write and what the device last knew")
    func trafficStoryPicksTheWritesUploads() throws {
        let saved = SyntheticRun.make(devices: 50, duration: 86_400_000_000, writeEvery: 3_600_000_000, fanOut: 10)
        let model = try ReportModel(trace: saved.trace, result: saved.result)
        let story = TrafficStory(model: model)
        let chosen = model.messages.indices.filter(story.messages.contains)
        for anomaly in model.anomalies {
            for write in [anomaly.write, anomaly.replacedBy].compactMap({ $0 }) {
                let place = try #require(model.writePlaces[write])
                // The synthetic run uploads each online write 1 ms after it.
                let upload = model.messages.indices.first {
                    model.messages[$0].lane == place.lane && model.messages[$0].kind == "upload" && model.messages[$0].sentAt >= place.at
                }
                #expect(upload.map(story.messages.contains) == true, "the upload of \(write) is drawn")
            }
        }
        // Only lanes with an anchor get arrows: devices named by no anomaly have none.
        let anchored = Set(model.anomalies.flatMap { anomaly in
            [anomaly.write, anomaly.replacedBy].compactMap { $0 }.compactMap { model.writePlaces[$0]?.lane } + [model.laneIndex(anomaly.device)].compactMap { $0 }
        })
        #expect(chosen.allSatisfy { anchored.contains(model.messages[$0].lane) })
        #expect(!story.pushes.isEmpty)
    }

    @Test("times read as short stable text")
    func timeText() {
        #expect(ReportTime.format(0) == "0s")
        #expect(ReportTime.format(250_000) == "250ms")
        #expect(ReportTime.format(30_080_000) == "30.08s")
        #expect(ReportTime.format(60_131_000) == "1m 0.131s")
        #expect(ReportTime.format(7_500_000_000) == "2h 05m")
        #expect(ReportTime.format(90_000_000_000) == "1d 01h")
        #expect(ReportTime.signed(-2_000_000) == "-2s")
    }
}
