/// GitHub Actions workflow commands (`::error file=F,line=L,col=C,title=T::message`), printed on
/// stdout when `GITHUB_ACTIONS=true` (SPEC §8).
///
/// Scenario names, paths and messages are user text: unescaped, a newline ends the command early
/// and a `,` or `:` in a file name splits the properties. GitHub's rules (the runner's
/// `ActionCommand` escaping): in the message, `%` → `%25`, CR → `%0D`, LF → `%0A`; in a property
/// value, those and also `:` → `%3A` and `,` → `%2C`.
public enum GitHubAnnotation {
    /// One `::error` line. Properties that are nil are left out.
    public static func error(_ message: String, file: String? = nil, line: Int? = nil, column: Int? = nil, title: String? = nil) -> String {
        var properties: [String] = []
        if let file { properties.append("file=" + escapeProperty(file)) }
        if let line { properties.append("line=" + escapeProperty(String(line))) }
        if let column { properties.append("col=" + escapeProperty(String(column))) }
        if let title { properties.append("title=" + escapeProperty(title)) }
        let head = properties.isEmpty ? "::error" : "::error " + properties.joined(separator: ",")
        return head + "::" + escapeData(message)
    }

    /// A message (after the closing `::`).
    public static func escapeData(_ text: String) -> String { escape(text, property: false) }

    /// A property value (`file=`, `line=`, `col=`, `title=`).
    public static func escapeProperty(_ text: String) -> String { escape(text, property: true) }

    // `%` is replaced first by construction: each scalar is replaced once, so `%0A` written by a
    // user stays `%250A`, never a newline.
    private static func escape(_ text: String, property: Bool) -> String {
        Markup.replacingScalars(of: text) { scalar in
            switch scalar {
            case "%": return "%25"
            case "\r": return "%0D"
            case "\n": return "%0A"
            case ":" where property: return "%3A"
            case "," where property: return "%2C"
            default: return nil
            }
        }
    }
}
