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
}
