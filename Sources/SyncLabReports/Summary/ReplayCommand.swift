/// The command that replays a run (STYLE: every failure message ends with it), ready to paste
/// into a POSIX shell.
public enum ReplayCommand {
    /// `swift run synclab run FILE --seed N [--variant NAME]`, the file and the variant quoted
    /// when a shell would otherwise split or expand them.
    /// - Parameter variant: nil to replay every variant with the seed.
    public static func render(file: String, seed: UInt64, variant: String?) -> String {
        var words = ["swift", "run", "synclab", "run", shellQuoted(file), "--seed", String(seed)]
        if let variant { words += ["--variant", shellQuoted(variant)] }
        return words.joined(separator: " ")
    }

    /// `text` as one shell word: bare when it holds only characters no POSIX shell treats
    /// specially (letters, digits, `_ @ % + = : , . / -`), else in single quotes, inside which
    /// nothing is special except `'` itself, written `'\''` (close, escaped quote, reopen).
    /// The empty string is `''`.
    public static func shellQuoted(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "_", "@", "%", "+", "=", ":", ",", ".", "/", "-": return true
            default: return false
            }
        }
        if plain { return text }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
