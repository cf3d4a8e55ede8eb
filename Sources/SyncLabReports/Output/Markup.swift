import SyncLabJSON

/// Escaping for XML, HTML and SVG text and attributes: every user string goes through here.
public enum Markup {
    /// Escapes `& < > " '` and drops characters XML 1.0 forbids (control characters other than
    /// tab, newline and carriage return), so hostile scenario strings cannot break a document.
    /// Bidi controls (U+202E…) are shown as `\u202E`: one would reverse the page's own text
    /// after the user string.
    public static func escape(_ text: String) -> String {
        replacingScalars(of: text) { scalar in
            if let entity = entity(scalar) { return entity }
            if TerminalText.isBidiControl(scalar) { return TerminalText.visible(scalar) }
            let value = scalar.value
            if value < 0x20 && value != 0x09 && value != 0x0A && value != 0x0D { return "" }
            if value == 0xFFFE || value == 0xFFFF { return "" }
            return nil
        }
    }

    /// The entity for a character markup reads as syntax (`&`, `<`, `>`, `"`, `'`); nil for others.
    /// Markdown uses it too: GitHub renders raw HTML inside Markdown.
    static func entity(_ scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "&": return "&amp;"
        case "<": return "&lt;"
        case ">": return "&gt;"
        case "\"": return "&quot;"
        case "'": return "&#39;"
        default: return nil
        }
    }

    /// The one loop behind the report escapers: `text` with each scalar replaced by what
    /// `replacement` returns for it (nil keeps the scalar, `""` drops it).
    /// - Complexity: O(n) in the length of `text`.
    static func replacingScalars(of text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let replaced = replacement(scalar) { result += replaced } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }
}
