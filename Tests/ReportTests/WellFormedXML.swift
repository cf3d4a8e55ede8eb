import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Parses text as XML with Foundation's `XMLDocument` (FoundationXML on Linux); nil when it is
/// well-formed, the parser's complaint otherwise.
enum WellFormedXML {
    static func problem(_ text: String) -> String? {
        do {
            _ = try XMLDocument(xmlString: text, options: [])
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// Every top-level `<svg …>…</svg>` in an HTML page, in order.
    static func svgs(in html: String) -> [String] {
        var found: [String] = []
        var rest = html[...]
        while let start = rest.range(of: "<svg"), let end = rest.range(of: "</svg>", range: start.upperBound..<rest.endIndex) {
            found.append(String(rest[start.lowerBound..<end.upperBound]))
            rest = rest[end.upperBound...]
        }
        return found
    }
}
