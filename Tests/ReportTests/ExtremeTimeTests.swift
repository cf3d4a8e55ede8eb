import Foundation
import Testing
@testable import SyncLabReports

/// Issue 14, crash 5: a result.json or trace may carry any 64-bit time; rendering never traps
/// or recurses.
@Suite("Reports on extreme times")
struct ExtremeTimeTests {
    /// The airplane fixture with every `…_us` number replaced by `value` (the trace's lines and
    /// the result alike), the result's digest recomputed.
    static func run(withEveryTime value: Int64) throws -> ReportModel {
        let saved = try Golden.fixture("airplane")
        let pattern = try NSRegularExpression(pattern: "(_us\":)-?[0-9]+")
        func replaced(_ bytes: [UInt8]) -> [UInt8] {
            let text = String(decoding: bytes, as: UTF8.self)
            let range = NSRange(text.startIndex..., in: text)
            return Array(pattern.stringByReplacingMatches(in: text, range: range, withTemplate: "$1\(value)").utf8)
        }
        return try ReportModel(trace: replaced(saved.trace), result: replaced(saved.result))
    }

    @Test("times of Int64.max, Int64.min and 0 everywhere render without trapping", arguments: [Int64.max, Int64.min, Int64.max - 1, Int64.min + 1, 0])
    func extremeTimes(value: Int64) throws {
        let model = try Self.run(withEveryTime: value)
        let page = TimelinePage.render(model)
        let markdown = MarkdownReport.render(model)
        #expect(page.contains("</html>"))
        #expect(!markdown.isEmpty)
    }

    @Test("the time formats take the whole 64-bit range")
    func formatsAtTheEnds() {
        #expect(ReportTime.format(Int64.min) == "-106751991d 04h")
        #expect(ReportTime.format(Int64.max) == "106751991d 04h")
        #expect(ReportTime.short(Int64.min) == "-106751991d 04h")
        #expect(ReportTime.signed(Int64.max) == "+106751991d 04h")
    }
}
