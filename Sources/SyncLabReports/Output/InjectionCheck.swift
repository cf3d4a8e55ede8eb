import Foundation
import SyncLabJSON

/// Reads a rendered report back and lists what a hostile string could have injected into it.
///
/// Used by the hostile corpus test and the report fuzz target (issue 14): they parse the output
/// instead of trusting the escaping code that produced it. The HTML check walks every tag and
/// accepts only the elements and attributes the timeline's own template writes; the Markdown
/// check accepts no raw HTML outside code (GitHub renders it) and requires every code fence,
/// the Mermaid diagram's included, to be closed by the renderer's own fence line.
public enum InjectionCheck {
    /// The elements `TimelinePage` writes. Anything else came from a user string.
    public static let timelineElements: Set<String> = [
        "a", "b", "body", "br", "circle", "code", "defs", "div", "footer", "g", "h1", "h2", "h3", "h4",
        "head", "header", "html", "li", "line", "marker", "meta", "ol", "p", "path", "pattern", "rect",
        "section", "span", "style", "svg", "table", "tbody", "td", "text", "th", "thead", "title", "tr",
        "tspan", "ul", "polygon", "polyline", "small", "strong", "em", "details", "summary", "nav", "main",
        "caption", "colgroup", "col", "tfoot", "sup", "sub", "abbr", "time", "hr", "i", "u", "pre", "kbd",
    ]

    /// The elements `JUnitReport` writes.
    public static let junitElements: Set<String> = ["testsuites", "testsuite", "testcase", "failure", "error", "skipped", "system-out", "system-err", "properties", "property"]

    /// Problems in an HTML page (or, with `junitElements`, a JUnit file): elements outside `elements`, event-handler or
    /// `javascript:` attributes, a comment, CDATA section or processing instruction, and a `<`
    /// that starts no tag (text the escaping missed). Empty when the page is clean.
    public static func html(_ page: String, elements: Set<String> = timelineElements) -> [String] {
        var problems = rawBidiControls(page)
        let bytes = Array(page.utf8)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else { index += 1; continue }
            let start = index
            var end = index + 1
            var quote: UInt8?
            while end < bytes.count {
                let byte = bytes[end]
                if let open = quote { if byte == open { quote = nil } } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { quote = byte } else if byte == UInt8(ascii: ">") { break }
                end += 1
            }
            let tag = String(decoding: bytes[start..<min(end + 1, bytes.count)], as: UTF8.self)
            index = end + 1
            if tag.hasPrefix("<!DOCTYPE") || tag.hasPrefix("<!doctype") || (start == 0 && tag.hasPrefix("<?xml ")) { continue }
            if tag.hasPrefix("<!") || tag.hasPrefix("<?") { problems.append("markup declaration \(tag.prefix(80))"); continue }
            let body = tag.dropFirst(tag.hasPrefix("</") ? 2 : 1)
            let name = String(body.prefix { $0.isLetter || $0.isNumber || $0 == "-" }).lowercased()
            guard !name.isEmpty else { problems.append("a raw '<' in text: \(tag.prefix(80))"); index = start + 1; continue }
            if !elements.contains(name) { problems.append("element <\(name)>: \(tag.prefix(80))") }
            // Attribute names are what is left once quoted values are taken out; a value may say
            // `onerror=` as (escaped) text, a name may not be a handler.
            let names = tag.lowercased().replacingOccurrences(of: #""[^"]*"|'[^']*'"#, with: "\"\"", options: .regularExpression)
            if names.range(of: #"\son[a-z]+\s*="#, options: .regularExpression) != nil { problems.append("event handler in \(tag.prefix(80))") }
            if tag.lowercased().range(of: #"(href|src|action)\s*=\s*["']?\s*javascript:"#, options: .regularExpression) != nil {
                problems.append("javascript: URL in \(tag.prefix(80))")
            }
            if name == "style" && !tag.hasPrefix("</") {
                // A <style> element holds CSS, not markup: go on at its end tag.
                guard let close = Self.offset(of: Array("</style>".utf8), in: bytes, from: index) else { problems.append("unclosed <style>"); break }
                index = close
            }
        }
        return problems
    }

    /// Problems in a Markdown report: raw HTML outside code spans and fences, and a code fence
    /// (the Mermaid block's included) that a user string opened or closed.
    public static func markdown(_ text: String) -> [String] {
        var problems = rawBidiControls(text)
        var inFence = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                // The renderer writes fences as "```" or "```mermaid" alone on a line.
                if trimmed != "```" && trimmed != "```mermaid" { problems.append("fence line from user text: \(line.prefix(80))") }
                inFence.toggle()
                continue
            }
            if inFence { continue }
            var outside = ""
            var inCode = false
            for character in line {
                if character == "`" { inCode.toggle(); continue }
                if !inCode { outside.append(character) }
            }
            if outside.range(of: #"<[A-Za-z/!?]"#, options: .regularExpression) != nil {
                problems.append("raw HTML outside code: \(line.prefix(120))")
            }
        }
        if inFence { problems.append("a code fence is never closed") }
        return problems
    }

    /// A raw bidi control reverses the report's own text after it (they are shown as `\u202E`).
    static func rawBidiControls(_ text: String) -> [String] {
        text.unicodeScalars.contains { TerminalText.isBidiControl($0) } ? ["a raw bidi control character"] : []
    }

    /// The offset of the first occurrence of `needle` in `bytes` at or after `start`.
    static func offset(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        var offset = start
        while offset + needle.count <= bytes.count {
            if bytes[offset..<offset + needle.count].elementsEqual(needle) { return offset }
            offset += 1
        }
        return nil
    }
}
