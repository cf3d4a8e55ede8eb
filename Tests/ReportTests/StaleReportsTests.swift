import Foundation
import Testing
@testable import SyncLabReports

/// Re-running a scenario file whose variants changed removes the reports its earlier run left
/// that the new layout no longer has (they used to stay, and `synclab report OUT` compared them
/// again), and nothing else: not a folder with a user's file in it, not another scenario's.
@Suite("Stale variant reports", .serialized)
struct StaleReportsTests {
    private let fileManager = FileManager.default

    private func write(_ text: String, _ path: String) throws {
        try fileManager.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test("a removed variant's folder goes; a user's folder and another scenario's reports stay")
    func aRemovedVariantsFolderGoes() throws {
        let root = CLIOutputTests.temporary("stale")
        defer { try? fileManager.removeItem(atPath: root) }
        let variants = ["base", "merge", "old"]
        try ReportSet.write(try variants.map { try CLIOutputTests.judged(seed: 3, variant: $0) }, file: "Scenarios/hostile.json", to: root, variants: variants)
        // A user's notes in a folder shaped like a report, and another scenario's reports.
        try fileManager.copyItem(atPath: root + "/old", toPath: root + "/mine")
        try write("my notes", root + "/mine/notes.txt")
        try fileManager.copyItem(atPath: root + "/old", toPath: root + "/other")
        let other = try String(contentsOfFile: root + "/other/result.json", encoding: .utf8)
        try write(other.replacingOccurrences(of: "\"file\": \"Scenarios/hostile.json\"", with: "\"file\": \"other.json\""), root + "/other/result.json")

        let kept = ["base", "merge"]
        let removed = try ReportSet.write(try kept.map { try CLIOutputTests.judged(seed: 3, variant: $0) }, file: "elsewhere/hostile.json", to: root, variants: kept)
        #expect(removed == ["old/"])
        #expect(!fileManager.fileExists(atPath: root + "/old"))
        for path in ["base/result.json", "merge/result.json", "mine/notes.txt", "mine/result.json", "other/result.json"] {
            #expect(fileManager.fileExists(atPath: root + "/" + path), "\(path)")
        }
        let index = try String(contentsOfFile: root + "/report.md", encoding: .utf8)
        #expect(!index.contains("(old/report.md)"))
    }

    @Test("a symlink to a report folder, and the folder it points to, stay")
    func aSymlinkIsNeverFollowed() throws {
        let root = CLIOutputTests.temporary("stale-link")
        let elsewhere = CLIOutputTests.temporary("stale-link-target")
        defer { try? fileManager.removeItem(atPath: root); try? fileManager.removeItem(atPath: elsewhere) }
        let variants = ["base", "old"]
        try ReportSet.write(try variants.map { try CLIOutputTests.judged(seed: 3, variant: $0) }, file: "hostile.json", to: root, variants: variants)
        try fileManager.moveItem(atPath: root + "/old", toPath: elsewhere)
        try fileManager.createSymbolicLink(atPath: root + "/old", withDestinationPath: elsewhere)
        let removed = try ReportSet.write([try CLIOutputTests.judged(seed: 3)], file: "hostile.json", to: root, variants: ["base", "merge"])
        #expect(removed.isEmpty)
        #expect(fileManager.fileExists(atPath: elsewhere + "/result.json"))
        #expect((try? fileManager.destinationOfSymbolicLink(atPath: root + "/old")) == elsewhere)
    }

    @Test("a scenario that lost its variants drops their folders; one that gained some drops its single run's files")
    func theLayoutSwitchesBothWays() throws {
        let root = CLIOutputTests.temporary("stale-layout")
        defer { try? fileManager.removeItem(atPath: root) }
        let variants = ["base", "merge"]
        try ReportSet.write(try variants.map { try CLIOutputTests.judged(seed: 3, variant: $0) }, file: "hostile.json", to: root, variants: variants)
        let single = try ReportSet.write([try CLIOutputTests.judged(seed: 3)], file: "hostile.json", to: root, variants: ["base"])
        #expect(single == ["base/", "merge/"])
        #expect(try fileManager.contentsOfDirectory(atPath: root).sorted() == ["report.md", "result.json", "timeline.html", "trace.jsonl"])
        let again = try ReportSet.write(try variants.map { try CLIOutputTests.judged(seed: 3, variant: $0) }, file: "hostile.json", to: root, variants: variants)
        #expect(again == ["result.json", "trace.jsonl"])
        #expect(try fileManager.contentsOfDirectory(atPath: root).sorted() == ["base", "merge", "report.md", "timeline.html"])
    }
}
