import Foundation
import Testing
import SyncLab

/// Swift Testing helpers (SPEC §9): each fails the current test with one issue per anomaly or
/// failed expectation, saying the seed, the replay line and where the reports were written.
extension RunResult {
    /// Where the helpers write reports unless told: `.build/synclab/<scenario>/<variant>` under
    /// the current directory (a test's working directory is its package's root).
    public var defaultReportsFolder: String {
        func folderName(_ text: String) -> String {
            let name = String(text.unicodeScalars.map { scalar -> Character in
                switch scalar {
                case "a"..."z", "A"..."Z", "0"..."9", ".", "_", "-": return Character(scalar)
                default: return "_"
                }
            })
            // `..` (or any leading `.`) would climb out of `.build/synclab` or hide the folder.
            return name.isEmpty || name.hasPrefix(".") ? "_" + name : name
        }
        return FileManager.default.currentDirectoryPath + "/.build/synclab/" + folderName(scenario) + "/" + folderName(variant)
    }

    /// Records an issue for each anomaly the checker found (of `kinds`, or every kind when nil).
    /// - Parameter folder: where to write the reports (`defaultReportsFolder` when nil); they
    ///   are written only when there is something to report.
    public func expectNoAnomalies(of kinds: [String]? = nil, reportsIn folder: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        let found = anomalies.filter { kinds?.contains($0.kind) ?? true }
        guard !found.isEmpty else { return }
        let context = reportContext(folder)
        for anomaly in found {
            Issue.record(Comment(rawValue: "\(anomaly)\n\(context)"), sourceLocation: sourceLocation)
        }
    }

    /// Records an issue for each failed expectation, assert or invariant of the scenario's `expect`.
    public func expectPassed(reportsIn folder: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        let failed = failedExpectations
        guard !failed.isEmpty else { return }
        let context = reportContext(folder)
        for expectation in failed {
            Issue.record(Comment(rawValue: "expectation \(expectation)\n\(context)"), sourceLocation: sourceLocation)
        }
    }

    /// Records an issue unless the checker found an anomaly of `kind` (and `store`, `device`
    /// when given): for tests that show a bug *is* found. The reports are written either way.
    /// - Returns: the matching anomalies.
    @discardableResult
    public func expectAnomaly(_ kind: String, store: String? = nil, device: String? = nil, reportsIn folder: String? = nil,
                              sourceLocation: SourceLocation = #_sourceLocation) -> [Anomaly] {
        let found = anomalies.filter { $0.kind == kind && (store == nil || $0.store == store) && (device == nil || $0.device == device) }
        let context = reportContext(folder)
        if found.isEmpty {
            Issue.record(Comment(rawValue: "expected a \(kind) anomaly, found none (anomalies: \(anomalies.map(\.kind)))\n\(context)"), sourceLocation: sourceLocation)
        }
        return found
    }

    /// Writes the reports and says where, with the seed and the replay line.
    func reportContext(_ folder: String?) -> String {
        let folder = folder ?? defaultReportsFolder
        let written: String
        do { written = "reports: " + (try writeReports(to: folder)) } catch { written = "reports: \(error)" }
        return "scenario \"\(scenario)\" variant \(variant), seed \(seed)\nreplay: \(replayCommand(reportsFolder: folder))\n\(written)"
    }
}
