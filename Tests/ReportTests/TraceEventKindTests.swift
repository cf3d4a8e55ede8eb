import Foundation
import Testing
import SyncLabJSON
import SyncLabHistory
@testable import SyncLabReports

/// The simulation writes `ev` from `TraceEventKind` and the reports read it back into one: every
/// event of every committed trace must be a case, so a rename on either side breaks the build or
/// this test, never a report silently.
@Suite("Trace event kinds")
struct TraceEventKindTests {
    static let reports = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Reports")

    @Test("every event name in the committed traces is a TraceEventKind")
    func committedTracesUseOnlyKnownKinds() throws {
        let files = (FileManager.default.enumerator(atPath: Self.reports.path)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix("trace.jsonl") }.sorted()
        #expect(files.count >= 10)
        var seen: Set<TraceEventKind> = []
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: Self.reports.appendingPathComponent(file)))
            var line = TraceLine(trace: bytes)
            var start = 0
            while start < bytes.count {
                let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
                try line.read(start..<end)
                let name = line.string("ev") ?? ""
                let kind = TraceEventKind(rawValue: name)
                #expect(kind != nil, "\(file): unknown event \(name)")
                if let kind { seen.insert(kind) }
                start = end + 1
            }
        }
        // The committed runs exercise the run's bracket and the kinds the reports draw.
        for kind: TraceEventKind in [.run, .end, .op, .send, .respond, .receive, .visible] { #expect(seen.contains(kind)) }
    }

    @Test("the events reports pass over unread are kinds, named as the writer names them")
    func unusedEventsAreKinds() {
        #expect(ReportModel.unusedEvents.map(\.rawValue) == ["visible", "log", "notify", "timer", "note", "launch", "heal", "skipped"])
    }
}
