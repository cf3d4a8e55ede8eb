import SyncLabResult

/// Lays out the reports of one scenario (SPEC §8): a scenario with no variants writes straight
/// into the folder; with variants, each run goes into `OUT/<variant>/` (named by
/// `VariantPaths.folders(for:)`, distinct even ignoring case) and `OUT/` holds the comparison
/// (`timeline.html`, `report.md`): a table of the variants, links to each, and the base variant
/// in full.
///
/// The comparison lists `base` first, then the other variants sorted by name, so that
/// `synclab report OUT/`, which finds the variants by their folders, writes the same bytes.
public enum ReportSet {
    /// - Parameters:
    ///   - runs: the runs made (with `--variant`, only some of the scenario's variants).
    ///   - variants: every variant name of the scenario, so that each run's folder is the one a
    ///     run of every variant gives it. A single name writes straight into `folder`.
    /// - Returns: the reports of earlier runs of this file that the layout no longer has, removed
    ///   (`StaleReports`), relative to `folder`.
    @discardableResult
    public static func write(_ runs: [JudgedRun], file: String, to folder: String, variants: [String]) throws -> [String] {
        if variants.count <= 1, let only = runs.first {
            try ReportWriter.write(only, file: file, to: folder)
            return StaleReports.remove(in: folder, variantFolders: [], file: file)
        }
        let folders = VariantPaths.folders(for: variants)
        var models: [ReportModel] = []
        for judged in runs {
            let variant = judged.outcome.run.variant
            guard let index = variants.firstIndex(of: variant) else { preconditionFailure("run of variant \(variant) not among \(variants)") }
            var model = try ReportWriter.write(judged, file: file, to: "\(folder)/\(folders[index])")
            model.folder = folders[index]
            models.append(model)
        }
        // `--variant` ran some variants only: the others are compared as their last run left
        // them in their folders (when it did, for this file), so the comparison still covers the
        // scenario and never shows a variant that ran under another's name.
        let ran = Set(runs.map(\.outcome.run.variant))
        for (index, variant) in variants.enumerated() where !ran.contains(variant) {
            guard var model = SavedRun.earlierRun(in: "\(folder)/\(folders[index])", variant: variant, file: file) else { continue }
            model.folder = folders[index]
            model.fromEarlierRun = true
            models.append(model)
        }
        try writeIndex(models, to: folder)
        return StaleReports.remove(in: folder, variantFolders: folders, file: file)
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
