// libFuzzer target: `synclab report` on arbitrary result/trace bytes (issue 14).
// Input: result.json bytes, a NUL byte, trace.jsonl bytes. A file pair the reader refuses is
// fine (an error, never a trap); one it accepts renders timeline.html and report.md, and both
// must read back clean (no element, handler, comment or raw markup a user string injected).
import SyncLabReports

/// `precondition` prints no message in an optimized build; a finding should say what broke.
func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReport(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    let split = input.firstIndex(of: 0) ?? input.count
    let result = Array(input[..<split])
    let trace = split < input.count ? Array(input[(split + 1)...]) : []
    guard let model = try? ReportModel(trace: trace, result: result) else { return 0 }
    let page = TimelinePage.render(model)
    let html = InjectionCheck.html(page)
    check(html.isEmpty, "timeline.html: \(html.prefix(3))")
    let markdown = InjectionCheck.markdown(MarkdownReport.render(model))
    check(markdown.isEmpty, "report.md: \(markdown.prefix(3))")
    return 0
}
