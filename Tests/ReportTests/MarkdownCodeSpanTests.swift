import Testing
@testable import SyncLabReports

/// GitHub reads `\|` as `|` only inside table cells (it splits the row before reading spans);
/// elsewhere a code span shows every backslash, so a key `a|b` in the anomaly list read `a\|b`.
@Suite("Code spans in report.md")
struct MarkdownCodeSpanTests {
    @Test func aPipeIsEscapedOnlyInATableCell() {
        #expect(MarkdownText.code("a|b") == "`a|b`")
        #expect(MarkdownText.code("a|b", inTable: true) == "`a\\|b`")
        #expect(MarkdownText.code("x`y\nz") == "`x'y z`")
    }
}
