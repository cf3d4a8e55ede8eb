import SyncLabScenario
import SyncLabResult
import SyncLabChecker
import SyncLabHistory

/// `--junit FILE`: one test case per scenario variant; failures carry the failed expectations and
/// the anomaly sentences (SPEC §8). A scenario file that did not validate is one test case in
/// error (`<error type="validation">`), with every validation error, so CI shows it beside the
/// runs of the files that were valid.
public enum JUnitReport {
    /// One scenario file's part of the report.
    public enum Entry: Sendable {
        /// A run of one variant of a valid file.
        case run(file: String, judged: JudgedRun)
        /// A file that did not validate: nothing of it ran.
        case invalid(file: String, errors: [ScenarioError])
        /// A file whose runs (listed as `run` entries before it) could not write their reports
        /// into `folder`, for `reason`.
        case reportsNotWritten(file: String, folder: String, reason: String)

        public var file: String {
            switch self {
            case .run(let file, _), .invalid(let file, _), .reportsNotWritten(let file, _, _): return file
            }
        }
    }

    /// - Parameters:
    ///   - entries: in the order the files were given; a file's runs together.
    ///   - teamProgram: what starts the executable that runs the team's apps, for the replay
    ///     lines of runs that use them (`ReplayCommand.program(for:teamProgram:)`).
    ///   - replayFlags: the options the runs were made with that their replay needs too.
    public static func render(_ entries: [Entry], teamProgram: String = ReplayCommand.builtInProgram, replayFlags: [String] = []) -> String {
        let failures = entries.filter(isFailure).count
        let errors = entries.filter(isError).count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"synclab\" tests=\"\(entries.count)\" failures=\"\(failures)\" errors=\"\(errors)\">\n"
        var byFile: [(String, [Entry])] = []
        for entry in entries {
            if byFile.last?.0 == entry.file { byFile[byFile.count - 1].1.append(entry) } else { byFile.append((entry.file, [entry])) }
        }
        for (file, group) in byFile {
            let name = group.lazy.compactMap(scenarioName).first ?? file
            xml += "  <testsuite name=\"\(Markup.escape(name))\" file=\"\(Markup.escape(file))\" tests=\"\(group.count)\" failures=\"\(group.filter(isFailure).count)\" errors=\"\(group.filter(isError).count)\">\n"
            for entry in group {
                switch entry {
                case .run(_, let judged): xml += testCase(judged, suite: name, file: file, teamProgram: teamProgram, replayFlags: replayFlags)
                case .invalid(_, let fileErrors): xml += invalidCase(fileErrors, suite: name, file: file)
                case .reportsNotWritten(_, let folder, let reason): xml += reportsCase(folder: folder, reason: reason, suite: name, file: file)
                }
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    private static func isFailure(_ entry: Entry) -> Bool {
        if case .run(_, let judged) = entry { return !judged.passed }
        return false
    }

    private static func isError(_ entry: Entry) -> Bool {
        switch entry {
        case .invalid, .reportsNotWritten: return true
        case .run: return false
        }
    }

    private static func scenarioName(_ entry: Entry) -> String? {
        if case .run(_, let judged) = entry { return judged.outcome.run.scenarioName }
        return nil
    }

    private static func testCase(_ judged: JudgedRun, suite: String, file: String, teamProgram: String, replayFlags: [String]) -> String {
        let run = judged.outcome.run
        var xml = "    <testcase classname=\"\(Markup.escape(suite))\" name=\"\(Markup.escape(run.variant))\" file=\"\(Markup.escape(file))\">\n"
        if !judged.passed {
            let failed = judged.expectations.filter { !$0.passed }
            let message = failed.map(\.sentence).joined(separator: "; ")
            var body = failed.map { "expectation \($0.sentence)" }
            body += judged.outcome.report.anomalies.map { "\($0.kind.rawValue): \($0.explanation)" }
            body.append("replay: " + ReplayCommand.render(file: file, seed: run.seed, variant: run.variant,
                                                             program: ReplayCommand.program(for: run, teamProgram: teamProgram), flags: replayFlags))
            xml += "      <failure message=\"\(Markup.escape(message))\" type=\"expectation\">\(Markup.escape(body.joined(separator: "\n")))</failure>\n"
        }
        let anomalies = judged.outcome.report.anomalies.map { "\($0.kind.rawValue): \($0.explanation)" }.joined(separator: "\n")
        if !anomalies.isEmpty { xml += "      <system-out>\(Markup.escape(anomalies))</system-out>\n" }
        xml += "    </testcase>\n"
        return xml
    }

    /// The test case of a file whose reports could not be written: named `reports`, beside its
    /// runs' own cases, so CI shows why the reports it links to are missing.
    private static func reportsCase(folder: String, reason: String, suite: String, file: String) -> String {
        let message = "cannot write reports to \(folder): \(reason)"
        return "    <testcase classname=\"\(Markup.escape(suite))\" name=\"reports\" file=\"\(Markup.escape(file))\">\n"
            + "      <error message=\"\(Markup.escape(message))\" type=\"reports\">\(Markup.escape(message))</error>\n"
            + "    </testcase>\n"
    }

    /// The test case of a file that did not validate: named `validation`, since no variant ran.
    private static func invalidCase(_ errors: [ScenarioError], suite: String, file: String) -> String {
        let message = "\(errors.count) validation error\(errors.count == 1 ? "" : "s"): the scenario did not run"
        let body = errors.map(\.description).joined(separator: "\n")
        return "    <testcase classname=\"\(Markup.escape(suite))\" name=\"validation\" file=\"\(Markup.escape(file))\">\n"
            + "      <error message=\"\(Markup.escape(message))\" type=\"validation\">\(Markup.escape(body))</error>\n"
            + "    </testcase>\n"
    }
}
