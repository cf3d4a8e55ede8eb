/// Escaping for XML, HTML and SVG text and attributes: every user string goes through here.
public enum Markup {
    /// Escapes `& < > " '` and drops characters XML 1.0 forbids (control characters other than
    /// tab, newline and carriage return), so hostile scenario strings cannot break a document.
    public static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default:
                let value = scalar.value
                if value < 0x20 && value != 0x09 && value != 0x0A && value != 0x0D { continue }
                if value == 0xFFFE || value == 0xFFFF { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
