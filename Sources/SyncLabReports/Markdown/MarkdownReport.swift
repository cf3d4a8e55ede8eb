/// `report.md`: the summary, each anomaly explained in a few sentences, the expectations, and a
/// Mermaid sequence diagram of the key events (SPEC §8), for a design document or a pull request.
public enum MarkdownReport {
    /// Anomalies explained one by one; past this the rest are tallied by kind.
    static let anomaliesListedMax = 20

    /// The report of one run.
    public static func render(_ model: ReportModel) -> String {
        var out = "# \(MarkdownText.escape(model.scenario)) — \(MarkdownText.escape(model.variant))\n\n"
        out += body(model, headingLevel: 2)
        out += "\nThe full timeline is in `timeline.html` beside this file; every event is in `trace.jsonl`.\n"
        return out
    }

    /// The variant comparison, links to each variant, then the base run in full.
    /// - Parameter models: one per variant, `base` first.
    public static func renderIndex(_ models: [ReportModel]) -> String {
        guard let first = models.first else { return "# No runs\n" }
        let base = models.first { $0.variant == "base" } ?? first
        var out = "# \(MarkdownText.escape(base.scenario)) — \(models.count) variant\(models.count == 1 ? "" : "s")\n\n"
        if !base.description.isEmpty { out += "> \(MarkdownText.escape(base.description))\n\n" }
        out += "## Variants compared\n\n"
        let columns = ComparisonColumns.metrics
        out += "| variant | " + columns.map(\.heading).joined(separator: " | ") + " | passed |\n"
        out += "|---|" + columns.map { $0.name == "converged" ? ":-:|" : "---:|" }.joined() + ":-:|\n"
        for model in models {
            let folder = model.variantFolder
            let figures = columns.map { ComparisonColumns.shown(model.metric($0.name)) }.joined(separator: " | ")
            out += "| [\(MarkdownText.escape(model.variant))](\(folder)/report.md)\(model.fromEarlierRun ? " (earlier run)" : "") | \(figures) | \(model.passed ? "PASS" : "**FAIL**") |\n"
        }
        out += "\nEach variant's own report, timeline and result are in its folder (`<variant>/report.md`, `timeline.html`, `result.json`, `trace.jsonl`).\n"
        if models.contains(where: \.fromEarlierRun) {
            out += "A variant marked (earlier run) did not run this time (`--variant`): it is shown as its last run left it in its folder.\n"
        }
        out += "\n"
        // The run shown in full is `base` when there is one; else (`--variant` ran another, and
        // base never ran here) the first variant, under its own name.
        let shown = base.variant == "base" ? "base" : MarkdownText.escape(base.variant)
        out += "## The \(shown) run in full\n\n"
        out += body(base, headingLevel: 3)
        out += "\nThe \(shown) run's timeline is `\(base.variantFolder)/timeline.html` (and, with the comparison, `timeline.html` beside this file).\n"
        return out
    }

    static func body(_ model: ReportModel, headingLevel level: Int) -> String {
        let heading = String(repeating: "#", count: level)
        var out = "**\(model.passed ? "PASSED" : "FAILED")** · seed \(MarkdownText.escape(model.seed)) · \(MarkdownText.escape(model.events)) events · simulated \(ReportTime.format(model.endMicroseconds))"
        out += model.settled ? " · settled" : " · did not settle"
        out += " · \(model.lanes.count) device\(model.lanes.count == 1 ? "" : "s")"
        if !model.file.isEmpty { out += " · \(MarkdownText.code(model.file))" }
        out += "\n\n"
        if !model.description.isEmpty && level == 2 { out += "> \(MarkdownText.escape(model.description))\n\n" }
        if !model.metrics.isEmpty {
            out += "| " + model.metrics.map { MarkdownText.escape($0.0) }.joined(separator: " | ") + " |\n"
            out += "|" + String(repeating: "---:|", count: model.metrics.count) + "\n"
            out += "| " + model.metrics.map { MarkdownText.escape($0.1) }.joined(separator: " | ") + " |\n\n"
        }
        let devices = model.lanes.map { lane in
            var text = "\(MarkdownText.escape(lane.name)) (clock \(ReportTime.signed(lane.clockOffsetMicroseconds))"
            if lane.driftPpm != "0" && lane.driftPpm != "0.0" { text += ", drift \(MarkdownText.escape(lane.driftPpm)) ppm" }
            if !lane.initiallyOnline { text += ", starts offline" }
            return text + ")"
        }
        if !devices.isEmpty && devices.count <= 12 { out += "Devices: " + devices.joined(separator: ", ") + ".\n\n" }

        out += "\(heading) Anomalies\n\n"
        if model.cutOffByEventCap { out += "The run hit the event cap (`end.maxEvents`) and was cut off: the checker did not judge it, so it looked for no anomalies.\n\n" }
        else if model.anomalies.isEmpty { out += "The checker found no anomalies.\n\n" }
        for anomaly in model.anomalies.prefix(anomaliesListedMax) {
            out += "\(anomaly.number). **\(MarkdownText.escape(anomaly.kind))** on \(MarkdownText.escape(anomaly.store)) \(MarkdownText.code(anomaly.itemLabel)) (device \(MarkdownText.escape(anomaly.device)), at \(ReportTime.format(anomaly.at))"
            if let write = anomaly.write { out += "; write \(MarkdownText.escape(write))" }
            if let replacedBy = anomaly.replacedBy { out += ", replaced by \(MarkdownText.escape(replacedBy))" }
            if let limit = anomaly.limit { out += "; limit \(MarkdownText.code(limit))" }
            out += "). \(MarkdownText.escape(anomaly.explanation))"
            for sentence in AnomalyContext.sentences(anomaly, in: model) { out += " \(MarkdownText.escape(sentence))" }
            out += "\n"
        }
        if model.anomalies.count > anomaliesListedMax {
            // A tally of the rest by kind, in order of first appearance, keeps the report short
            // enough to paste while still saying what else the checker found.
            var kinds: [(kind: String, count: Int)] = []
            for anomaly in model.anomalies.dropFirst(anomaliesListedMax) {
                if let index = kinds.firstIndex(where: { $0.kind == anomaly.kind }) { kinds[index].count += 1 } else { kinds.append((anomaly.kind, 1)) }
            }
            let tally = kinds.map { "\($0.count) \(MarkdownText.escape($0.kind))" }.joined(separator: ", ")
            out += "\n… and \(model.anomalies.count - anomaliesListedMax) more (\(tally)): every one is in `result.json` and listed in `timeline.html`.\n"
        }
        if !model.anomalies.isEmpty { out += "\n" }

        out += "\(heading) Expectations\n\n"
        if model.expectations.isEmpty {
            out += "None.\n\n"
        } else {
            out += "| expectation | wanted | actual | |\n|---|---|---|:-:|\n"
            for expectation in model.expectations {
                out += "| \(MarkdownText.escape(expectation.name)) | \(MarkdownText.code(TimelineSVG.clip(expectation.wanted, 120), inTable: true)) | \(MarkdownText.code(TimelineSVG.clip(expectation.actual, 120), inTable: true)) | \(expectation.passed ? "✓" : "✗ **failed**") |\n"
            }
            out += "\n"
        }

        out += "\(heading) Key events\n\n"
        out += "Times are true time from the scenario's start.\n\n"
        out += MermaidDiagram.render(model)
        return out
    }
}
