import Foundation
import Testing
import SyncLabChecker
import SyncLabHistory
import SyncLabKernel
import SyncLabProtocol
import SyncLabReports
import SyncLabSimulation
import SyncLabRunner
@testable import SyncLabScenario

/// `docs/SCENARIOS.md` lists exactly what the code accepts and writes: every op, setting,
/// expect key, anomaly kind, result field and trace event. A name added to the code without a
/// line in the reference fails here, and so does a name the reference lists that the code does
/// not know.
@Suite("The scenario reference matches the code")
struct ReferenceDocTests {
    let doc = ReferenceDoc.load("docs/SCENARIOS.md")

    /// Keys documented ahead of the reader (none now: `apps` has landed). A key listed here is
    /// tolerated as documented-only, and checked like any other once the code lists it.
    static let arrivingKeys: Set<String> = []

    /// Records an issue for each name the code has and the reference lacks, and each name the
    /// reference lists that the code lacks (except `arriving`).
    private func expectSame(_ documented: [String], _ code: [String], _ what: String, arriving: Set<String> = [],
                            sourceLocation: SourceLocation = #_sourceLocation) {
        let documentedSet = Set(documented), codeSet = Set(code)
        #expect(!documented.isEmpty || code.isEmpty, "no \(what) found in docs/SCENARIOS.md", sourceLocation: sourceLocation)
        let missing = codeSet.subtracting(documentedSet).sorted()
        let unknown = documentedSet.subtracting(codeSet).subtracting(arriving).sorted()
        #expect(missing.isEmpty, "\(what) the code accepts but docs/SCENARIOS.md does not list: \(missing)", sourceLocation: sourceLocation)
        #expect(unknown.isEmpty, "\(what) docs/SCENARIOS.md lists but the code does not know: \(unknown)", sourceLocation: sourceLocation)
        #expect(documented.count == documentedSet.count, "\(what) listed twice in docs/SCENARIOS.md: \(documented)", sourceLocation: sourceLocation)
    }

    @Test func everyTopLevelDeviceVariantAndEndKeyIsDocumented() {
        expectSame(doc.names("Top-level keys"), ScenarioResolver.topLevelKeys, "top-level keys", arriving: Self.arrivingKeys)
        expectSame(doc.names("Devices"), ScenarioKeys.device + ScenarioKeys.clock.map { "clock.\($0)" }, "device keys", arriving: Self.arrivingKeys)
        expectSame(doc.names("Variants"), ScenarioKeys.variant, "variant keys", arriving: Self.arrivingKeys)
        expectSame(doc.names("The end phase"), ScenarioKeys.end, "end keys")
    }

    @Test func everyLinkSettingAndLatencyDistributionIsDocumentedWithItsParameters() {
        expectSame(doc.names("Network and links"), ScenarioReader.linkKeys, "link settings")
        expectSame(doc.names("Latency distributions"), ScenarioKeys.latencyDistributions.map(\.dist), "latency distributions")
        for (dist, parameters) in ScenarioKeys.latencyDistributions {
            let cells = doc.row("Latency distributions", dist)?[1] ?? ""
            expectSame(ReferenceDoc.backticked(cells), parameters, "parameters of \(dist)")
        }
    }

    @Test func everyEngineSettingIsDocumentedWithEveryValue() {
        let code = ScenarioKeys.engine.flatMap { section in section.keys.map { "\(section.section).\($0)" } }
        expectSame(doc.names("Engine settings"), code, "engine settings")
        let values: [String: [String]] = [
            "kvs.timestampSource": TimestampSource.allCases.map(\.rawValue),
            "documents.conflict": DocumentConflictPolicy.allCases.map(\.rawValue),
            "documents.winner": DocumentWinner.allCases.map(\.rawValue),
            "records.conflict": RecordConflictPolicy.allCases.map(\.rawValue),
            "records.savePolicy": SavePolicy.allCases.map(\.rawValue),
        ]
        for (setting, cases) in values.sorted(by: { $0.key < $1.key }) {
            expectSame(ReferenceDoc.backticked(doc.row("Engine settings", setting)?[1] ?? ""), cases, "values of engine.\(setting)")
        }
        // The built-in apps are the policies (SPEC §9).
        expectSame(ReferenceDoc.backticked(doc.row("Apps", "documents")?[1] ?? ""), DocumentConflictPolicy.allCases.map(\.rawValue), "built-in document apps")
        expectSame(ReferenceDoc.backticked(doc.row("Apps", "records")?[1] ?? ""), RecordConflictPolicy.allCases.map(\.rawValue), "built-in record apps")
        expectSame(doc.names("Apps"), Store.allCases.map(\.rawValue), "stores under apps")
    }

    @Test func everyLimitIsDocumented() {
        let code = ScenarioKeys.kvsLimits.map { "kvs.\($0)" } + ["storage"] + ScenarioKeys.recordLimits.map { "records.\($0)" }
        #expect(Set(ScenarioKeys.limits) == ["kvs", "storage", "records"], "a new limits section needs its own rows here")
        expectSame(doc.names("Limits"), code, "limits")
    }

    @Test func everyUnitIsDocumented() {
        let sections: [(String, [String])] = [
            ("Durations", Units.durationUnits.map(\.unit)), ("Sizes", Units.sizeUnits.map(\.unit)), ("Bandwidths", Units.bandwidthUnits.map(\.unit)),
        ]
        for (heading, units) in sections {
            let words = doc.backtickedWords(heading)
            let missing = units.filter { !words.contains($0) }
            #expect(missing.isEmpty, "\(heading) units missing from docs/SCENARIOS.md: \(missing)")
            let unknown = doc.names(heading).filter { !units.contains($0) }
            #expect(unknown.isEmpty, "\(heading) units the code does not know: \(unknown)")
        }
    }

    @Test func everyStepKeyAndPlaceholderIsDocumented() {
        expectSame(doc.names("Steps"), StepResolver.stepKeys, "step keys")
        expectSame(doc.names("Steps", table: 1), StepTemplate.placeholders.map { "${\($0)}" }, "placeholders")
    }

    @Test func everyOpIsDocumentedWithItsArgumentsAndWhichAreRequired() {
        expectSame(doc.names("Ops"), StepResolver.ops.map(\.name), "ops")
        for spec in StepResolver.ops {
            guard let row = doc.row("Ops", spec.name) else { continue }
            let arguments = ReferenceDoc.arguments(row[1])
            expectSame(arguments.map(\.name), spec.arguments, "arguments of \(spec.name)")
            expectSame(arguments.filter { !$0.optional }.map(\.name), spec.required, "required arguments of \(spec.name)")
        }
    }

    /// The one-line example of every op is a step that validates and is that op.
    @Test func everyOpExampleIsAValidStepOfItsOp() {
        for spec in StepResolver.ops {
            guard let row = doc.row("Ops", spec.name), let example = ReferenceDoc.backticked(row[3]).first else {
                Issue.record("no example for \(spec.name)")
                continue
            }
            // A restart needs a crash before it (a lifecycle rule the validator checks).
            let before = spec.name == "device.restart" ? #"{"at": "0s", "device": "A", "op": "device.crash"}, "# : ""
            let text = """
            {"format": "synclab/1", "name": "example", "accounts": ["main", "alice"],
             "devices": [{"id": "A"}, {"id": "B"}], "steps": [\(before)\(example)]}
            """
            // Errors show the same example (a missing argument prints the op's example).
            #expect(ShapeExample.step(spec.name) == example, "docs/SCENARIOS.md and ShapeExample.ops differ for \(spec.name)")
            switch ScenarioLoader.parse(text: text, path: "example.json") {
            case .success(let file):
                #expect(file.runs[0].steps.last?.op.name == spec.name, "the example of \(spec.name) is a \(file.runs[0].steps.last?.op.name ?? "nothing")")
            case .failure(let errors):
                Issue.record("the example of \(spec.name) does not validate:\n\(errors)")
            }
        }
    }

    /// The house-rule hook's check, as a test: every `"x.y"` op string of Step.swift is in the reference.
    @Test func everyOpStringOfTheStepModelIsInTheReference() throws {
        let source = try String(contentsOf: ReferenceDoc.root.appendingPathComponent("Sources/SyncLabScenario/Model/Step.swift"), encoding: .utf8)
        let text = doc.lines.joined(separator: "\n")
        let names = Self.matches(#""([a-zA-Z]+(?:\.[a-zA-Z]+)+)""#, in: source)
        #expect(names.count >= StepResolver.ops.count - 1)
        for name in names { #expect(text.contains("`\(name)`"), "\(name) is missing from docs/SCENARIOS.md") }
    }

    @Test func everyExpectKeyPatternKeyAndNotificationReasonIsDocumented() {
        expectSame(doc.names("Expectations"), ExpectationResolver.keys, "expect keys")
        expectSame(doc.names("Expectations", table: 1), ScenarioKeys.anomalyPattern, "anomaly pattern keys")
        expectSame(doc.names("Notification reasons"), AppNotification.reasons, "notification reasons")
    }

    @Test func everyAnomalyKindIsDocumentedWithASample() throws {
        expectSame(doc.names("Anomaly kinds"), ExpectationResolver.anomalyKinds, "anomaly kinds")
        for kind in ExpectationResolver.anomalyKinds {
            let sample = doc.row("Anomaly kinds", kind)?[2] ?? ""
            #expect(sample.contains("\""), "the sample explanation of \(kind) quotes nothing")
        }
        // The kinds the checker writes (a typed enum) are the kinds `expect` accepts.
        expectSame(AnomalyKind.allCases.map(\.rawValue), ExpectationResolver.anomalyKinds, "checker kinds vs expect kinds")
    }

    @Test func everyResultFieldIsDocumented() throws {
        let fixture = ReferenceDoc.root.appendingPathComponent("Tests/ReportTests/Fixtures/airplane/result.json")
        let result = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: fixture)) as? [String: Any])
        let metrics = try #require(result["metrics"] as? [String: Any])
        let expectations = try #require((result["expectations"] as? [[String: Any]])?.first)
        var anomaly = Anomaly(kind: .lostUpdate, store: .records, account: "main", item: "Z/r", field: "title", device: "A",
                              at: SimInstant(microseconds: 1), explanation: "x", write: "A:1", replacedBy: "B:1", limit: "storage")
        anomaly.items = ["Z/r.title", "Z/s.title"]
        let anomalyFields = try #require(try JSONSerialization.jsonObject(with: Data(ResultDocument.anomalyJSON(anomaly).rendered().utf8)) as? [String: Any])
        let code = Array(result.keys) + metrics.keys.map { "metrics.\($0)" } + anomalyFields.keys.map { "anomalies[].\($0)" }
            + expectations.keys.map { "expectations[].\($0)" }
        expectSame(doc.names("result.json"), code, "result.json fields")
    }

    @Test func everyTraceEventIsDocumented() throws {
        // The trace's event kinds are one typed enum; every case is written by the simulation.
        let events = TraceEventKind.allCases.map(\.rawValue)
        #expect(events.count > 20)
        expectSame(doc.names("trace.jsonl"), Array(events), "trace events")
    }

    /// The example files at the top of the reference are valid scenarios.
    @Test func theExampleFilesValidate() {
        let blocks = doc.section("A minimal file").joined(separator: "\n").components(separatedBy: "```")
        let files = stride(from: 1, to: blocks.count, by: 2).map { String(blocks[$0].drop { $0 != "\n" }.dropFirst()) }
        #expect(files.count == 2)
        for file in files {
            if case .failure(let errors) = ScenarioLoader.parse(text: file, path: "example.json5") { Issue.record("\(errors)") }
        }
    }

    /// The two example files do what the reference says they do: the KVS one fails on its final
    /// value with a lost update and a causality violation; the records one fails under
    /// serverWins and passes under merge.
    @Test func theExampleFilesBehaveAsDescribed() throws {
        let blocks = doc.section("A minimal file").joined(separator: "\n").components(separatedBy: "```")
        try #require(blocks.count >= 4)
        let kvs = try ScenarioLoader.parse(text: String(blocks[1].drop { $0 != "\n" }.dropFirst()), path: "kvs.json").get()
        let judged = ScenarioRunner.run(kvs.runs[0])
        #expect(!judged.passed)
        #expect(judged.expectations.filter { !$0.passed }.map(\.name) == ["final.kvs.theme"])
        #expect(Set(judged.outcome.report.anomalies.map(\.kind)) == [AnomalyKind.lostUpdate, .causalityViolation])
        let records = try ScenarioLoader.parse(text: String(blocks[3].drop { $0 != "\n" }.dropFirst()), path: "todo.json5").get()
        let outcomes = records.runs.map { (variant: $0.variant, passed: ScenarioRunner.run($0).passed) }
        #expect(outcomes.map(\.variant) == ["base", "merge"])
        #expect(outcomes.map(\.passed) == [false, true])
    }

    /// The first-attempt file under "Bad input" gets exactly the errors printed below it.
    @Test func theBadInputExampleGetsTheErrorsShown() {
        let blocks = doc.section("Bad input").joined(separator: "\n").components(separatedBy: "```")
        // [prose, "json5\nFILE", prose, "\nERRORS", prose]
        #expect(blocks.count >= 5)
        guard blocks.count >= 5 else { return }
        let file = blocks[1].drop { $0 != "\n" }.dropFirst()
        let shown = blocks[3].split(separator: "\n").map(String.init)
        guard case .failure(let errors) = ScenarioLoader.parse(text: String(file), path: "mistakes.json") else {
            Issue.record("the Bad input example validates")
            return
        }
        #expect(errors.errors.map(\.description) == shown)
    }

    // MARK: - Source scanning

    /// The text of every Swift file under `folder`, concatenated.
    static func sources(under folder: String) throws -> String {
        let base = ReferenceDoc.root.appendingPathComponent(folder)
        let files = FileManager.default.enumerator(atPath: base.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted() ?? []
        return try files.map { try String(contentsOf: base.appendingPathComponent($0), encoding: .utf8) }.joined(separator: "\n")
    }

    /// Every capture group's text of every match of `pattern` in `text`.
    static func matches(_ pattern: String, in text: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: range).flatMap { match in
            (1..<match.numberOfRanges).compactMap { Range(match.range(at: $0), in: text).map { String(text[$0]) } }
        }
    }
}
