/// A small command-line parser: positional arguments and `--name value` / `--flag` options.
///
/// Written here because the project takes no package dependencies (SPEC §1).
struct Arguments {
    /// Options that take a value, and flags that do not.
    let valued: Set<String>
    let flags: Set<String>
    private(set) var positional: [String] = []
    private(set) var values: [String: String] = [:]
    private(set) var present: Set<String> = []

    /// - Throws: `UsageError` for an unknown option or a missing value.
    init(_ arguments: [String], valued: Set<String>, flags: Set<String>) throws(UsageError) {
        self.valued = valued; self.flags = flags
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                positional.append(contentsOf: arguments[(index + 1)...]); break
            }
            if argument.hasPrefix("-") && argument.count > 1 {
                var name = argument
                var inlineValue: String?
                if let equals = argument.firstIndex(of: "=") {
                    name = String(argument[..<equals]); inlineValue = String(argument[argument.index(after: equals)...])
                }
                if name == "-h" { name = "--help" }
                // Said, not guessed: a second `--variant` would silently replace the first (only
                // the last ran, where two read as "run both"). Other options keep the usual rule
                // (the last one given wins), which scripts rely on to override a default.
                if present.contains(name) && Arguments.namesOne.contains(name) {
                    throw UsageError("\(name) is given twice: it names one \(name.dropFirst(2)); run the command once per \(name.dropFirst(2))")
                }
                // A flag's `=false` would silently turn it on.
                if flags.contains(name) {
                    if let inlineValue { throw UsageError("\(name) takes no value, got \(name)=\(inlineValue) (leave it out to turn it off)") }
                    present.insert(name)
                } else if valued.contains(name) {
                    if let inlineValue { values[name] = inlineValue } else {
                        guard index + 1 < arguments.count else { throw UsageError("\(name) needs a value") }
                        index += 1
                        values[name] = arguments[index]
                    }
                    present.insert(name)
                } else {
                    let known = (valued.union(flags)).sorted()
                    let hint = known.first { Arguments.close($0, name) }.map { " (did you mean \($0)?)" } ?? ""
                    throw UsageError("unknown option \(name)\(hint)")
                }
            } else {
                positional.append(argument)
            }
            index += 1
        }
    }

    /// Options whose repetition reads as "several of them" (`--variant a --variant b`), which
    /// none of them takes: given twice they are a usage error rather than the last one winning.
    static let namesOne: Set<String> = ["--variant", "--profile", "--find", "--anomaly", "--store"]

    func has(_ flag: String) -> Bool { present.contains(flag) }
    func value(_ name: String) -> String? { values[name] }

    /// Edit distance ≤ 2: for "did you mean".
    static func close(_ a: String, _ b: String) -> Bool {
        let x = Array(a), y = Array(b)
        if abs(x.count - y.count) > 2 { return false }
        var previous = Array(0...y.count)
        for i in 1...max(x.count, 1) where !x.isEmpty {
            var current = [i] + Array(repeating: 0, count: y.count)
            for j in 1...max(y.count, 1) where !y.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[y.count] <= 2
    }
}

/// A command-line mistake: exit status 2.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
