/// `timeline.html`: one self-contained page per run (SPEC §8), and the variant index.
///
/// Inline CSS and SVG only: no scripts, no fonts, no network; `<title>` elements give hover
/// details, and the page reads fully without them. The top says what to look at (verdict,
/// anomalies in words, expectations, metrics), the legend says how, the timeline shows it.
public enum TimelinePage {
    /// The full page for one run.
    public static func render(_ model: ReportModel) -> String {
        var out = head(title: "\(model.scenario) — \(model.variant)")
        out += runSections(model, headingLevel: 1, links: nil)
        out += footer
        return out
    }

    /// The variant index: comparison table, links to each variant, then the base run in full.
    /// - Parameter models: one per variant, `base` first.
    public static func renderIndex(_ models: [ReportModel]) -> String {
        guard let first = models.first else { return head(title: "no runs") + footer }
        let base = models.first { $0.variant == "base" } ?? first
        var out = head(title: "\(base.scenario) — variants")
        out += "<header><h1>\(Markup.escape(base.scenario)) <span class=\"variant\">\(models.count) variant\(models.count == 1 ? "" : "s")</span></h1>\n"
        if !base.description.isEmpty { out += "<p class=\"description\">\(Markup.escape(base.description))</p>\n" }
        out += "</header>\n<section><h2>Variants compared</h2>\n"
        out += comparisonTable(models)
        if models.contains(where: \.fromEarlierRun) {
            out += "<p>A variant marked (earlier run) did not run this time (<code>--variant</code>): it is shown as its last run left it in its folder.</p>\n"
        }
        out += "</section>\n"
        // `base` when there is one; else (`--variant` ran another) the first variant, named.
        out += "<section class=\"base-run\"><h2>The \(Markup.escape(base.variant == "base" ? "base" : base.variant)) run in full</h2>\n"
        out += runSections(base, headingLevel: 3, links: "\(base.variantFolder)/")
        out += "</section>\n"
        out += footer
        return out
    }

    /// The comparison table (variant × every metric, `ComparisonColumns`, and passed), each
    /// variant linking to its own folder.
    static func comparisonTable(_ models: [ReportModel]) -> String {
        let headings = ComparisonColumns.metrics.map { "<th>\($0.heading)</th>" }.joined()
        var out = "<table class=\"compare\"><thead><tr><th>variant</th>\(headings)<th>passed</th><th>reports</th></tr></thead><tbody>\n"
        for model in models {
            let folder = model.variantFolder
            out += "<tr class=\"\(model.passed ? "pass" : "fail")\"><td><a href=\"\(Markup.escape(folder))/timeline.html\">\(Markup.escape(model.variant))</a>\(model.fromEarlierRun ? " (earlier run)" : "")</td>"
            for name in ComparisonColumns.metrics.map(\.name) {
                let value = model.metric(name)
                let bad = (name == "converged" && value == "false") || (name == "lostUpdates" && value != "0") || (name == "quotaViolations" && value != "0")
                out += "<td class=\"num\(bad ? " bad" : "")\">\(Markup.escape(ComparisonColumns.shown(value)))</td>"
            }
            out += "<td class=\"\(model.passed ? "pass" : "fail")\">\(model.passed ? "PASS" : "FAIL")</td>"
            out += "<td><a href=\"\(Markup.escape(folder))/timeline.html\">timeline</a> · <a href=\"\(Markup.escape(folder))/report.md\">report.md</a> · <a href=\"\(Markup.escape(folder))/result.json\">result.json</a></td></tr>\n"
        }
        out += "</tbody></table>\n"
        return out
    }

    static func head(title: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8"/>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <title>\(Markup.escape(title))</title>
        <style>
        \(css)</style>
        </head>
        <body>

        """
    }

    static let footer = """
    <footer><p>How to read this: time runs left to right (true time, not any device's clock). Each device has a lane, the cloud has one in the middle. Hatched stretches are offline or crashed; patterned columns marked ⋯ are idle time folded away, with its length written above. Arrows are messages: blue device → cloud, green cloud → device (the answer), dashed purple pushes; their slant is their latency and hovering shows it. Numbered red marks are the checker's anomalies, explained above and under the lanes.</p></footer>
    </body>
    </html>

    """

    /// Header, anomalies, expectations, metrics, legend, timeline.
    static func runSections(_ model: ReportModel, headingLevel level: Int, links: String?) -> String {
        let h1 = "h\(level)", h2 = "h\(min(level + 1, 6))"
        var out = "<header>"
        out += "<\(h1)>\(Markup.escape(model.scenario)) <span class=\"variant\">\(Markup.escape(model.variant))</span></\(h1)>\n"
        out += "<p class=\"facts\"><span class=\"verdict \(model.passed ? "pass" : "fail")\">\(model.passed ? "PASSED" : "FAILED")</span> "
        out += Markup.escape("seed \(model.seed) · \(model.events) events · simulated \(ReportTime.format(model.endMicroseconds))\(model.settled ? " · settled" : " · did not settle") · \(model.lanes.count) device\(model.lanes.count == 1 ? "" : "s")")
        if !model.file.isEmpty { out += " · <code>\(Markup.escape(model.file))</code>" }
        if let links { out += " · <a href=\"\(Markup.escape(links))timeline.html\">this run on its own</a>" }
        out += "</p>\n"
        if !model.description.isEmpty && links == nil { out += "<p class=\"description\">\(Markup.escape(model.description))</p>\n" }
        out += "</header>\n"

        out += "<section class=\"happened\"><\(h2)>What happened</\(h2)>\n"
        if model.cutOffByEventCap {
            out += "<p>The run hit the event cap (<code>end.maxEvents</code>) and was cut off: the checker did not judge it, so it looked for no anomalies.</p>\n"
        } else if model.anomalies.isEmpty {
            out += "<p>The checker found no anomalies.</p>\n"
        } else {
            out += "<ol class=\"anomaly-list\">\n"
            for anomaly in model.anomalies.prefix(200) {
                out += "<li><b>\(Markup.escape(anomaly.kind))</b> · \(Markup.escape(anomaly.store)) <code>\(Markup.escape(anomaly.itemLabel))</code> · \(Markup.escape(anomaly.device)) · \(Markup.escape(ReportTime.format(anomaly.at)))"
                if let write = anomaly.write { out += " · write <b>\(Markup.escape(write))</b>" }
                if let replacedBy = anomaly.replacedBy { out += " replaced by <b>\(Markup.escape(replacedBy))</b>" }
                if let limit = anomaly.limit { out += " · limit <code>\(Markup.escape(limit))</code>" }
                out += "<br/>\(Markup.escape(anomaly.explanation))"
                let context = AnomalyContext.sentences(anomaly, in: model)
                if !context.isEmpty { out += " <span class=\"context\">\(Markup.escape(context.joined(separator: " ")))</span>" }
                out += "</li>\n"
            }
            if model.anomalies.count > 200 { out += "<li>… \(model.anomalies.count - 200) more in result.json</li>\n" }
            out += "</ol>\n"
        }
        out += "</section>\n"

        out += "<section class=\"numbers\"><div><\(h2)>Expectations</\(h2)>\n"
        if model.expectations.isEmpty {
            out += "<p>None.</p>"
        } else {
            out += "<table><thead><tr><th>expectation</th><th>wanted</th><th>actual</th><th></th></tr></thead><tbody>\n"
            for expectation in model.expectations {
                out += "<tr class=\"\(expectation.passed ? "pass" : "fail")\"><td>\(Markup.escape(expectation.name))</td><td><code>\(Markup.escape(TimelineSVG.clip(expectation.wanted, 120)))</code></td><td><code>\(Markup.escape(TimelineSVG.clip(expectation.actual, 120)))</code></td><td>\(expectation.passed ? "✓" : "✗ failed")</td></tr>\n"
            }
            out += "</tbody></table>"
        }
        out += "</div><div><\(h2)>Metrics</\(h2)>\n<table><tbody>\n"
        for (name, value) in model.metrics {
            out += "<tr><td>\(Markup.escape(name))</td><td class=\"num\">\(Markup.escape(value))</td></tr>\n"
        }
        out += "</tbody></table></div></section>\n"
        out += legend
        out += "<div class=\"scroll\">\n"
        out += TimelineSVG(model: model).render()
        out += "</div>\n"
        return out
    }

    static let legend = """
    <section class="legend">
    <span><svg width="14" height="14"><g class="op write"><circle cx="7" cy="7" r="4.5"/></g></svg> user write</span>
    <span><svg width="18" height="18"><g class="op write involved"><circle cx="9" cy="9" r="5"/></g><circle class="ring" cx="9" cy="9" r="8"/></svg> write an anomaly is about</span>
    <span><svg width="14" height="14"><g class="op other"><path d="M7,2L11,7L7,12L3,7z"/></g></svg> other operation (airplane mode, sign-in…)</span>
    <span><svg width="26" height="12"><line class="up" x1="1" y1="10" x2="24" y2="2"/></svg> request device → cloud</span>
    <span><svg width="26" height="12"><line class="down" x1="1" y1="2" x2="24" y2="10"/></svg> response cloud → device</span>
    <span><svg width="26" height="12"><line class="push" x1="1" y1="2" x2="24" y2="10"/></svg> push</span>
    <span><svg width="12" height="12"><path class="cross" d="M3,3L9,9M3,9L9,3"/></svg> lost, dropped or not sent</span>
    <span><svg width="26" height="14"><rect width="26" height="14" fill="url(#hatch)" class="offline-sample"/></svg> offline / crashed</span>
    <span><svg width="16" height="14"><rect width="16" height="14" fill="url(#fold)" class="fold-sample"/></svg> idle time folded</span>
    <span><svg width="16" height="16"><g class="mark conflict"><path d="M8,1L15,8L8,15L1,8z"/></g></svg> conflict</span>
    <span><svg width="14" height="14"><g class="mark rejected"><rect x="2" y="2" width="10" height="10"/></g></svg> rejected write (quota)</span>
    <span><svg width="14" height="14"><g class="mark lastWriterWins"><path d="M2,12L12,12L7,4z"/></g></svg> last writer wins</span>
    <span><svg width="30" height="14"><path class="lost-link" d="M2,12C2,2 28,2 28,12"/></svg> lost write → the write that replaced it</span>
    <span><svg width="26" height="10"><g class="density"><rect x="1" y="1" width="12" height="4" opacity="0.5"/><rect x="13" y="1" width="12" height="4"/></g><g class="mark-density"><rect x="1" y="6" width="24" height="4" opacity="0.75"/></g></svg> busy lane: traffic (blue) and frequent marks (their colour) shaded by how many; arrows and marks still drawn for anomalies</span>
    <span><svg width="18" height="18"><circle class="badge" cx="9" cy="9" r="8"/><text class="badge-text" x="9" y="13">1</text></svg> anomaly (numbered as in the list)</span>
    </section>

    """

    static let css = """
    body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:16px 20px;color:#1d2329;background:#fff}
    h1{font-size:22px;margin:0 0 4px}h2,h3,h4{font-size:16px;margin:18px 0 6px}
    .variant{font-weight:400;color:#5a6570;font-size:.8em}
    .facts{margin:2px 0;color:#3c4650}.description{max-width:70em;color:#3c4650}
    .verdict{font-weight:700;padding:1px 8px;border-radius:4px;color:#fff}.verdict.pass{background:#2d8a4e}.verdict.fail{background:#c0392b}
    code{font:12px ui-monospace,Menlo,Consolas,monospace;background:#f3f5f7;padding:0 3px;border-radius:3px}
    table{border-collapse:collapse;margin:4px 0}td,th{border:1px solid #d9dee3;padding:3px 8px;text-align:left;vertical-align:top}
    th{background:#f3f5f7;font-weight:600}td.num{text-align:right}td.bad{color:#c0392b;font-weight:700}
    tr.fail td:first-child{border-left:3px solid #c0392b}td.fail{color:#c0392b;font-weight:700}td.pass{color:#2d8a4e;font-weight:700}
    .numbers{display:flex;flex-wrap:wrap;gap:28px}
    .anomaly-list li{margin:4px 0;max-width:80em}.context{color:#5a6570}
    .legend{display:flex;flex-wrap:wrap;gap:6px 16px;margin:12px 0 6px;font-size:12px;color:#3c4650}.legend span{display:inline-flex;align-items:center;gap:5px}
    .legend svg{overflow:visible}
    .scroll{overflow-x:auto;border:1px solid #d9dee3;border-radius:4px}
    footer{margin-top:14px;color:#5a6570;font-size:12px;max-width:80em}
    svg text{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
    .lane.even{fill:#fbfcfd}.lane.odd{fill:#f4f6f8}.lane.cloud{fill:#eaf1f8}
    .lane-axis{stroke:#c5ccd3;stroke-width:1}
    .lane-name{font-size:13px;font-weight:700;fill:#1d2329}.lane-clock{font-size:10.5px;fill:#5a6570;font-weight:400}
    .axis-title{font-size:11px;fill:#5a6570}.tick{stroke:#c5ccd3;stroke-width:.6}.tick.minor{stroke:#e3e7eb}
    .tick-label{font-size:10.5px;fill:#3c4650;text-anchor:middle}
    .fold-band{opacity:.9}.fold-bg,.fold-sample{fill:#eef0f2}.fold-line{fill:none;stroke:#c5ccd3;stroke-width:.8}
    .fold-label{font-size:10px;fill:#5a6570;text-anchor:middle}
    .hatch-bg{fill:#fde9d9}.hatch-line{stroke:#e8a87c;stroke-width:3}
    .crashed .hatch-line{stroke:#999}.down-label{font-size:10.5px;fill:#8a4a1c;font-weight:600}
    .up{stroke:#2b6cb0;stroke-width:1.3}.down{stroke:#2f855a;stroke-width:1.3}.push{stroke:#805ad5;stroke-width:1.1;stroke-dasharray:4 3}
    .failed{stroke-dasharray:2 2}.ah-up{fill:#2b6cb0}.ah-down{fill:#2f855a}.ah-push{fill:#805ad5}.ah-lost{fill:#c0392b}
    .cross{stroke:#c0392b;stroke-width:1.6;fill:none}
    .msg:hover line{stroke-width:3}.latency{font-size:10px;fill:#3c4650}
    .density rect{fill:#2b6cb0}.mark-density rect{fill:#d69e2e}.mark-density.conflict rect,.mark-density.conflictShown rect{fill:#dd6b20}.mark-density.rejected rect{fill:#805ad5}
    .op circle{stroke:#fff;stroke-width:1}.op.write circle{fill:#2b6cb0}.op.write.involved circle{fill:#c0392b}
    .op.rejected circle{fill:#805ad5}.op.other path{fill:#718096}.op.group rect{fill:#2b6cb0;opacity:.6}
    .op-label{font-size:11px;fill:#1d2329}
    .mark.conflict path{fill:#dd6b20;stroke:#fff}.mark.conflictShown path{fill:#fff;stroke:#dd6b20;stroke-width:2}
    .mark.rejected rect{fill:#805ad5}.mark.lastWriterWins path{fill:#d69e2e}
    .mark.clock circle{fill:#fff;stroke:#4a5568;stroke-width:1.2}.mark.clock path{stroke:#4a5568;fill:none}
    .mark-label{font-size:10.5px;fill:#8a4a1c}
    .lost-link{fill:none;stroke:#c0392b;stroke-width:2.2}
    .ring{fill:none;stroke:#c0392b;stroke-width:2}
    .badge{fill:#c0392b}.badge-text{font-size:10px;font-weight:700;fill:#fff;text-anchor:middle}
    .anomaly-label{font-size:11px;font-weight:700;fill:#c0392b}.anomaly-text{font-size:11.5px;fill:#1d2329}
    .guide{stroke:#c0392b;stroke-width:.8;stroke-dasharray:2 3}

    """
}
