import Foundation
import Testing
import SyncLabReports

/// The reader-back the hostile corpus and the report fuzz target use: it passes every committed
/// report and catches each kind of injection.
@Suite("Injection check")
struct InjectionCheckTests {
    static let reports = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Reports")

    static func files(named name: String) -> [URL] {
        let enumerator = FileManager.default.enumerator(at: reports, includingPropertiesForKeys: nil)
        var found: [URL] = []
        while let url = enumerator?.nextObject() as? URL { if url.lastPathComponent == name { found.append(url) } }
        return found.sorted { $0.path < $1.path }
    }

    @Test("every committed timeline and report reads back clean")
    func committedReportsAreClean() throws {
        let pages = Self.files(named: "timeline.html"), markdown = Self.files(named: "report.md")
        #expect(pages.count > 10 && markdown.count > 10)
        for url in pages { #expect(InjectionCheck.html(try String(contentsOf: url, encoding: .utf8)) == [], "\(url.path)") }
        for url in markdown { #expect(InjectionCheck.markdown(try String(contentsOf: url, encoding: .utf8)) == [], "\(url.path)") }
    }

    @Test("injected elements, handlers, comments and raw '<' are caught in HTML")
    func htmlInjections() {
        let clean = "<!DOCTYPE html><html><head><style>a > b { }</style></head><body><p title=\"a onerror=x\">x &lt;img onerror=y&gt;</p></body></html>"
        #expect(InjectionCheck.html(clean) == [])
        for bad in ["<p><script>alert(1)</script></p>", "<p><img src=x></p>", "<p onclick=\"x\">a</p>", "<p><!-- x --></p>",
                    "<p>a < b</p>", "<a href=\"javascript:x\">a</a>", "<p><![CDATA[x]]></p>", "<p>\u{202E}x</p>"] {
            #expect(!InjectionCheck.html(bad).isEmpty, "\(bad)")
        }
    }

    @Test("raw HTML outside code and fences opened by user text are caught in Markdown")
    func markdownInjections() {
        let clean = "# T\n\nA `<b>` in code, a &lt; b.\n\n```mermaid\nsequenceDiagram\n  A->>B: <x>\n```\n"
        #expect(InjectionCheck.markdown(clean) == [])
        for bad in ["a <img src=x> b\n", "</details>\n", "```mermaid\nA->>B: x\n", "```mermaid\nA->>B: x\n```js\n```\n"] {
            #expect(!InjectionCheck.markdown(bad).isEmpty, "\(bad)")
        }
    }
}
