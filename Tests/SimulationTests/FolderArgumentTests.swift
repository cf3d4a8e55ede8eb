import Foundation
import Testing

/// A folder argument means its scenario files: not hidden files (an editor's `.#x.json`, the
/// `._x.json` macOS writes beside a file copied to another disk) and not folders named like
/// scenarios. They made `synclab validate DIR` fail with exit 2 on files nobody wrote.
@Suite("A folder argument")
struct FolderArgumentTests {
    @Test func hiddenFilesAndFoldersAreNotScenarios() throws {
        let folder = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = #"{"format": "synclab/1", "name": "ok", "devices": [{"id": "A"}]}"#
        try scenario.write(to: folder.appendingPathComponent("ok.json"), atomically: true, encoding: .utf8)
        try "\u{0}\u{5}binary".write(to: folder.appendingPathComponent("._ok.json"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("old.json"), withIntermediateDirectories: true)
        let all = try Synclab.run(["validate", folder.path])
        #expect(all.status == 0, "\(all.stdout)\(all.stderr)")
        #expect(all.stdout.contains("ok.json") && !all.stdout.contains("._ok.json"))
        // Named on its own, a hidden file is read like any other.
        #expect(try Synclab.run(["validate", folder.appendingPathComponent("._ok.json").path]).status == 2)
    }

    /// One file named in several spellings (`a.json ./a.json`, through `..`, inside its folder)
    /// runs once: it was refused as two files writing to one folder.
    @Test func oneFileSpeltTwiceRunsOnce() throws {
        let folder = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = #"{"format": "synclab/1", "name": "ok", "devices": [{"id": "A"}]}"#
        try scenario.write(to: folder.appendingPathComponent("ok.json"), atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("out").path
        let run = try Synclab.run(["run", "ok.json", "./ok.json", "../\(folder.lastPathComponent)/ok.json", ".", "--out", out, "--format", "json"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.components(separatedBy: "\"file\": ").count == 2, "\(run.stdout)")
        #expect(FileManager.default.fileExists(atPath: out + "/result.json"))
    }

    /// `.JSON` and `.Json5` are scenario extensions too: a folder's `Checkout.JSON` was skipped
    /// without a word (a folder holding only it said "no scenario files found"), and named
    /// alone its reports went to `Reports/Checkout.JSON/`.
    @Test func extensionsInAnyCase() throws {
        let folder = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = #"{"format": "synclab/1", "name": "NAME", "devices": [{"id": "A"}]}"#
        try scenario.replacingOccurrences(of: "NAME", with: "upper").write(to: folder.appendingPathComponent("Checkout.JSON"), atomically: true, encoding: .utf8)
        try scenario.replacingOccurrences(of: "NAME", with: "mixed").write(to: folder.appendingPathComponent("Other.Json5"), atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("out").path
        let run = try Synclab.run(["run", folder.path, "--out", out])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("PASS  upper [base]") && run.stdout.contains("PASS  mixed [base]"), "\(run.stdout)")
        #expect(FileManager.default.fileExists(atPath: out + "/Checkout/result.json"))
        #expect(FileManager.default.fileExists(atPath: out + "/Other/result.json"))
    }

    /// A folder or `--out` given with trailing slashes (`Scenarios//`, `--out out/`, as shells
    /// complete them) spells the paths built on it with one: RESULT's `file` was
    /// `Scenarios//a.json`, and the summary said `reports: out//a/`.
    @Test func trailingSlashesAreNotRepeated() throws {
        let folder = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("in"), withIntermediateDirectories: true)
        let scenario = #"{"format": "synclab/1", "name": "NAME", "devices": [{"id": "A"}]}"#
        for name in ["a", "b"] {
            try scenario.replacingOccurrences(of: "NAME", with: name).write(to: folder.appendingPathComponent("in/\(name).json"), atomically: true, encoding: .utf8)
        }
        let json = try Synclab.run(["run", "in//", "--out", "out//", "--format", "json"], in: folder)
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout.contains(#""file": "in/a.json""#) && json.stdout.contains(#""file": "in/b.json""#), "\(json.stdout)")
        let text = try Synclab.run(["run", "in/", "--out", "out/"], in: folder)
        #expect(text.stdout.contains("reports: out/a/") && !text.stdout.contains("//"), "\(text.stdout)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/b/result.json").path))
    }
}
