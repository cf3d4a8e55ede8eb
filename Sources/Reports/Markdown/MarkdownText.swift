/// Escaping for Markdown (GitHub-flavoured) and Mermaid: every scenario string goes through here.
public enum MarkdownText {
    /// Inline text: Markdown punctuation backslash-escaped, `<`, `>` and `&` as entities (GitHub
    /// renders raw HTML), `|` escaped for tables, line breaks as spaces.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\\", "`", "*", "_", "[", "]", "|", "#", "!", "~", "{", "}", "$": out += "\\"; out.unicodeScalars.append(scalar)
            case "\n", "\r", "\t": out += " "
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Text inside a code span: backticks become `'`, line breaks spaces.
    public static func code(_ text: String) -> String {
        var out = "`"
        for scalar in text.unicodeScalars {
            switch scalar {
            case "`": out += "'"
            case "|": out += "\\|"
            case "\n", "\r", "\t": out += " "
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out + "`"
    }

    /// Text in a Mermaid message or note. Mermaid reads `;` and line breaks as statement ends,
    /// `#…;` as entities and `<…>` as HTML, so those are replaced by look-alikes; `:` is kept
    /// (only the first one in a line is syntax, and it comes before this text).
    public static func mermaid(_ text: String, limit: Int = 120) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case ";": out += ","
            case "#": out += "no."
            case "<": out += "‹"
            case ">": out += "›"
            case "&": out += "+"
            case "\"": out += "'"
            case "%": out += " pct"
            case "{", "}": out += "'"
            case "\n", "\r", "\t": out += " "
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out.count <= limit ? out : String(out.prefix(limit - 1)) + "…"
    }
}
