import Foundation
import Testing
import SyncLab

/// `writeReports(to:)` failures surfaced as Foundation's raw error (`Error Domain=NSCocoaErrorDomain
/// Code=512 …`), naming neither the folder in plain words nor the reason.
@Suite("writeReports failures name the folder and the reason")
struct ReportWriteErrorTests {
    @Test("a folder under a regular file: ReportWriteError with the folder and that the path is a file")
    func folderUnderAFile() throws {
        let result = try World(devices: ["A"]).finish()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("synclab-not-a-folder-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let folder = file + "/reports"
        #expect {
            try result.writeReports(to: folder)
        } throws: { error in
            guard let error = error as? ReportWriteError else { return false }
            return error.folder == folder && error.reason == "\(file) is a file, not a folder"
                && error.description == "cannot write reports to \(folder): \(file) is a file, not a folder"
        }
    }
}
