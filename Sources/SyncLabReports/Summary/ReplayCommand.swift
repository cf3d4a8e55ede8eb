import SyncLabScenario

/// The command that replays a run (STYLE: every failure message ends with it), ready to paste
/// into a POSIX shell.
public enum ReplayCommand {
    /// How the replay of a run that names only built-in apps starts: the `synclab` command line.
    public static let builtInProgram = "swift run synclab"

    /// `PROGRAM run FILE --seed N [--variant NAME]`, the file and the variant quoted when a shell
    /// would otherwise split or expand them.
    /// - Parameters:
    ///   - variant: nil to replay every variant with the seed.
    ///   - program: the command that starts the executable, pasted as it is: `builtInProgram`,
    ///     or a team's own executable for a run of the team's apps (`program(for:teamProgram:)`).
    ///   - flags: the run's options the replay needs too (`--host-records-policies`), appended.
    public static func render(file: String, seed: UInt64, variant: String?, program: String = builtInProgram, flags: [String] = []) -> String {
        var words = [program, "run", shellQuoted(file), "--seed", String(seed)]
        if let variant { words += ["--variant", shellQuoted(variant)] }
        return (words + flags.map(shellQuoted)).joined(separator: " ")
    }

    /// The program that can replay `run` (SPEC §9): `synclab` when every device runs built-in
    /// apps only, else `teamProgram`, the team's executable that knows its apps (`synclab`
    /// would refuse their names).
    public static func program(for run: ScenarioRun, teamProgram: String) -> String {
        run.devices.allSatisfy(\.apps.namesOnlyBuiltIns) ? builtInProgram : teamProgram
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
