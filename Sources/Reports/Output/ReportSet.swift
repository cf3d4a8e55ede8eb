import Simulation

/// Lays out the reports of one scenario (SPEC §8): a scenario with no variants writes straight
/// into the folder; with variants, each run goes into `OUT/<variant>/` and `OUT/` holds the
/// comparison (`timeline.html`, `report.md`): a table of the variants, links to each, and the
/// base variant in full.
///
/// The comparison lists `base` first, then the other variants sorted by name, so that
/// `synclab report OUT/`, which finds the variants by their folders, writes the same bytes.
public enum ReportSet {
    public static func write(_ runs: [ScenarioRunner.Judged], file: String, to folder: String, splitVariants: Bool) throws {
        if !splitVariants, let only = runs.first {
            try ReportWriter.write(only, file: file, to: folder)
            return
        }
        var models: [ReportModel] = []
        for judged in runs {
            models.append(try ReportWriter.write(judged, file: file, to: "\(folder)/\(VariantPaths.folder(judged.outcome.run.variant))"))
        }
        try writeIndex(models, to: folder)
    }

    /// Writes the comparison of `models` into `folder`.
    public static func writeIndex(_ models: [ReportModel], to folder: String) throws {
        let ordered = ordered(models)
        try ReportWriter.write(TimelinePage.renderIndex(ordered), to: folder + "/timeline.html")
        try ReportWriter.write(MarkdownReport.renderIndex(ordered), to: folder + "/report.md")
    }

    /// `base` first, then by variant name (UTF-8 order).
    public static func ordered(_ models: [ReportModel]) -> [ReportModel] {
        let others = models.filter { $0.variant != "base" }.sorted { Array($0.variant.utf8).lexicographicallyPrecedes(Array($1.variant.utf8)) }
        return models.filter { $0.variant == "base" } + others
    }
}
