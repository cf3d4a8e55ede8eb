import Foundation
import SyncLabScenario
import SyncLabReports

/// How the CLI shows a file's validation errors: one line each on stderr (`FILE:LINE:COL: PATH:
/// MESSAGE`) and, under GitHub Actions, an `::error` annotation each, so the errors appear on
/// the lines of the pull request that caused them. Annotations go to stdout in text mode and to
/// stderr with `--format json`, so stdout stays one JSON document (SPEC §7).
enum ValidationOutput {
    /// Whether to print GitHub Actions annotations (SPEC §8: when `GITHUB_ACTIONS=true`).
    static var annotate: Bool { ProcessInfo.processInfo.environment["GITHUB_ACTIONS"] == "true" }

    static func show(_ errors: ScenarioErrors, annotate: Bool, json: Bool = false) {
        for error in errors.errors { Console.error(error.description) }
        guard annotate else { return }
        for error in errors.errors {
            annotation(json: json, GitHubAnnotation.error("\(error.path): \(error.message)", file: error.file, line: error.position?.line,
                                               column: error.position?.column, title: "invalid scenario"))
        }
    }

    /// Prints one annotation line: stdout, or stderr when stdout carries a JSON document.
    static func annotation(json: Bool, _ line: String) {
        if json { Console.error(line) } else { Console.out(line) }
    }
}
