/// Text made safe to print on a terminal or in a CI log: every control character, and every
/// bidirectional control, shown visibly instead of acting.
///
/// User strings (scenario names, device ids, keys, file names) may hold `ESC` sequences that
/// drive a terminal, a CR that overwrites a line, a newline followed by `::error` or
/// `::stop-commands::` that GitHub Actions would obey, or U+202E that reverses the text after
/// it. The escapes are JSON's (`\n`, `\r`, `\u001B`, `\u202E`), so a JSON document stays valid
/// and means the same after escaping (its own escaping leaves no raw control character), and
/// a reader recognises them. Used for everything the command line prints.
public enum TerminalText {
    /// `text` with every control character and bidi control escaped. With
    /// `keepingNewlines`, `\n` (and tab) stay as they are: for text whose line breaks are
    /// SyncLab's own and whose user strings were escaped line by line already.
    public static func escape(_ text: String, keepingNewlines: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0, keepingNewlines: keepingNewlines) }) else { return text }
        var output = ""
        output.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar, keepingNewlines: keepingNewlines) else { output.unicodeScalars.append(scalar); continue }
            switch scalar {
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            default: output += visible(scalar)
            }
        }
        return output
    }

    /// `\u202E`: how a bidi control is shown visibly, in terminals and in reports alike.
    public static func visible(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// Whether `scalar` is a bidirectional formatting character (embeddings, overrides,
    /// isolates, marks): text that reorders what follows it.
    public static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    private static func needsEscape(_ scalar: Unicode.Scalar, keepingNewlines: Bool) -> Bool {
        if keepingNewlines && (scalar == "\n" || scalar == "\t") { return false }
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: return true
        default: return isBidiControl(scalar)
        }
    }
}
