import Simulation

/// Lays out the reports of one scenario (SPEC §8): a scenario with no variants writes straight
/// into the folder; with variants, each run goes into `OUT/<variant>/` and `OUT/` holds the
/// comparison.
public enum ReportSet {
    public static func write(_ runs: [ScenarioRunner.Judged], file: String, to folder: String, splitVariants: Bool) throws {
        if !splitVariants, let only = runs.first {
            try ReportWriter.write(only, file: file, to: folder)
            return
        }
        for judged in runs {
            try ReportWriter.write(judged, file: file, to: "\(folder)/\(judged.outcome.run.variant)")
        }
    }
}
