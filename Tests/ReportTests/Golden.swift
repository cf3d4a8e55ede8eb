import Foundation
import Testing

/// Golden files that never update silently (swift-argument-parser's `assertSnapshot`): a
/// mismatch fails; `SYNCLAB_RECORD_GOLDENS=1` rewrites the file and still fails once, so a
/// re-recording is always a deliberate, reviewed change.
enum Golden {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func check(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let url = folder.appendingPathComponent(name)
        let recording = ProcessInfo.processInfo.environment["SYNCLAB_RECORD_GOLDENS"] == "1"
        let expected = (try? Data(contentsOf: url)).map { String(decoding: $0, as: UTF8.self) }
        if expected == actual { return }
        if recording {
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try? Data(actual.utf8).write(to: url)
            Issue.record("re-recorded golden \(name); run the tests again without SYNCLAB_RECORD_GOLDENS", sourceLocation: sourceLocation)
            return
        }
        guard let expected else {
            Issue.record("no golden file \(name); record it with SYNCLAB_RECORD_GOLDENS=1 swift test", sourceLocation: sourceLocation)
            return
        }
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let first = zip(actualLines, expectedLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(actualLines.count, expectedLines.count)
        let got = first < actualLines.count ? String(actualLines[first]) : "<end>"
        let wanted = first < expectedLines.count ? String(expectedLines[first]) : "<end>"
        Issue.record("\(name) differs from its golden at line \(first + 1):\n  golden: \(wanted.prefix(300))\n  actual: \(got.prefix(300))\n(re-record with SYNCLAB_RECORD_GOLDENS=1 if the change is intended)", sourceLocation: sourceLocation)
    }

    /// A saved run from `Fixtures/<name>/`.
    static func fixture(_ name: String) throws -> (trace: [UInt8], result: [UInt8]) {
        let folder = fixtures.appendingPathComponent(name)
        return (Array(try Data(contentsOf: folder.appendingPathComponent("trace.jsonl"))),
                Array(try Data(contentsOf: folder.appendingPathComponent("result.json"))))
    }
}
