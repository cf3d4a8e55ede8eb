import SyncLabJSON

/// Escaping for Markdown (GitHub-flavoured) and Mermaid: every scenario string goes through here.
public enum MarkdownText {
    /// Inline text: Markdown punctuation backslash-escaped, `<`, `>` and `&` as entities (GitHub
    /// renders raw HTML), `|` escaped for tables, line breaks as spaces.
    public static func escape(_ text: String) -> String {
        Markup.replacingScalars(of: text) { scalar in
            switch scalar {
            case "&", "<", ">": return Markup.entity(scalar)
            case "\\", "`", "*", "_", "[", "]", "|", "#", "!", "~", "{", "}", "$": return "\\" + String(scalar)
            default: return plain(scalar)
            }
        }
    }

    /// Text inside a code span: backticks become `'`, line breaks spaces. In a table cell `|`
    /// is written `\|` (GitHub splits cells before reading spans); anywhere else a backslash in
    /// a code span is shown as itself, so `|` stays bare.
    public static func code(_ text: String, inTable: Bool = false) -> String {
        let inside = Markup.replacingScalars(of: text) { scalar in
            switch scalar {
            case "`": return "'"
            case "|": return inTable ? "\\|" : nil
            default: return plain(scalar)
            }
        }
        return "`" + inside + "`"
    }

    /// Text in a Mermaid message or note. Mermaid reads `;` and line breaks as statement ends,
    /// `#…;` as entities and `<…>` as HTML, so those are replaced by look-alikes; `:` is kept
    /// (only the first one in a line is syntax, and it comes before this text).
    public static func mermaid(_ text: String, limit: Int = 120) -> String {
        let out = Markup.replacingScalars(of: text) { scalar in
            switch scalar {
            case ";": return ","
            case "#": return "no."
            case "<": return "‹"
            case ">": return "›"
            case "&": return "+"
            case "\"": return "'"
            case "%": return " pct"
            case "{", "}": return "'"
            default: return plain(scalar)
            }
        }
        return out.count <= limit ? out : String(out.prefix(limit - 1)) + "…"
    }

    /// What every Markdown and Mermaid text does with layout and control characters: line breaks
    /// and tabs become spaces (a line break would end a table row or statement), other control
    /// characters are dropped; nil keeps the scalar.
    private static func plain(_ scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "\n", "\r", "\t": return " "
        // A bidi control would reverse the report's own text after the user string: shown, not obeyed.
        case _ where TerminalText.isBidiControl(scalar): return TerminalText.visible(scalar)
        default: return scalar.value < 0x20 || scalar.value == 0x7F ? "" : nil
        }
    }
}
