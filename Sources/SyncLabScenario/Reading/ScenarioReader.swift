import SyncLabJSON
import SyncLabKernel

/// Collects errors while a scenario is validated, and reads typed values out of JSON nodes.
///
/// Every reader reports what is wrong (with the node's position and path, and what was expected)
/// and returns nil, so callers carry on and the file's other errors are found too.
final class ScenarioReader {
    let file: String
    /// The app names `apps` sections may use (SPEC §9).
    let appNames: AppNames
    private var errors: [ScenarioError] = []
    /// Every name's first spelling (`checkSpelling`).
    private var spellings = NameSpellings()

    init(file: String, appNames: AppNames = .builtIn) { self.file = file; self.appNames = appNames }

    var hasErrors: Bool { !errors.isEmpty }

    /// Records one error.
    func report(_ message: String, at position: SourcePosition?, path: JSONPath) {
        errors.append(ScenarioError(file: file, position: position, path: path.description, message: message))
    }

    /// Reports `name` when the file wrote the same name before in another Unicode normalization
    /// form (`NameSpellings`): Swift takes the two as one name, their bytes as two.
    func checkSpelling(_ name: String, _ kind: NameSpellings.Kind, at position: SourcePosition?, path: JSONPath) {
        guard let earlier = spellings.note(name, kind: kind, at: position) else { return }
        let (mine, theirs) = NameSpellings.difference(name, earlier.spelling)
        report("\(kind.rawValue) \"\(name)\" is the \(kind.rawValue) written \(earlier.position.map { "at line \($0.line), column \($0.column)" } ?? "earlier in this file") in another Unicode normalization form (\(mine) here, \(theirs) there): Swift strings, and so SyncLab, take the two as one \(kind.rawValue) while their bytes differ; spell it the same way everywhere",
               at: position, path: path)
    }

    /// Every error once, in file order. Errors at the same place and path are reported once
    /// (step templates are checked once per expansion).
    func sortedErrors() -> [ScenarioError] {
        var seen: [String: Bool] = [:]
        var unique: [(offset: Int, error: ScenarioError)] = []
        for (offset, error) in errors.enumerated() {
            let key = "\(error.position?.description ?? "-")|\(error.path)"
            if seen[key] != nil { continue }
            seen[key] = true
            unique.append((offset, error))
        }
        unique.sort { lhs, rhs in
            switch (lhs.error.position, rhs.error.position) {
            case let (left?, right?) where left != right: return left < right
            case (nil, _?): return false
            case (_?, nil): return true
            default: return lhs.offset < rhs.offset
            }
        }
        return unique.map(\.error)
    }

    // MARK: - Objects

    /// The members of an object, reporting a non-object and every key not in `allowed`.
    /// - Parameters:
    ///   - what: how messages name the object ("a device", "the scenario").
    ///   - example: the right shape (`{"id": "A"}`), shown when the value is not an object.
    ///   - hint: for an unknown key users often write, what to say instead of the closest key.
    func members(_ node: JSONNode, _ path: JSONPath, allowed: [String], what: String, example: String? = nil,
                 hint: (String) -> String? = { _ in nil }) -> [JSONMember]? {
        guard let members = node.members else {
            report("\(expectedObject(what, example: example)), got \(node.value.shortDescription)", at: node.position, path: path)
            return nil
        }
        for member in members where !allowed.contains(member.key) {
            let hint = hint(member.key) ?? Suggestion.hint(for: member.key, in: allowed)
            let list = allowed.count <= 12 ? " (expected one of: \(allowed.joined(separator: ", ")))" : ""
            report("unknown key '\(member.key)' in \(what)\(hint.isEmpty ? list : hint)", at: member.keyPosition, path: path.key(member.key))
        }
        return members
    }

    /// `expected a device object such as {"id": "A"}`, or `expected a device (an object)` without an example.
    func expectedObject(_ what: String, example: String?) -> String {
        guard let example else { return "expected \(what) (an object)" }
        let named = what.hasPrefix("a ") || what.hasPrefix("an ") ? "\(what) object" : "\(what) as an object"
        return "expected \(named) such as \(example)"
    }

    /// The value of a required member, reporting its absence at the object's position.
    func required(_ members: [JSONMember], _ key: String, in object: JSONNode, _ path: JSONPath, what: String) -> JSONNode? {
        if let member = members.first(where: { $0.key == key }) { return member.value }
        report("missing required key '\(key)' in \(what)", at: object.position, path: path.key(key))
        return nil
    }

    // MARK: - Scalars

    func string(_ node: JSONNode, _ path: JSONPath, nonEmpty: Bool = false, what: String = "a string") -> String? {
        guard case .string(let text) = node.value else {
            report("expected \(what), got \(node.value.shortDescription)", at: node.position, path: path)
            return nil
        }
        if nonEmpty && text.isEmpty {
            report("expected \(what), got an empty string", at: node.position, path: path)
            return nil
        }
        return text
    }

    /// Reports an id (device, account, variant) holding a control character or a bidi control:
    /// ids are printed in terminals, CI logs and reports, where those would act (a newline
    /// forging a log line, U+202E reversing the text after it) instead of showing.
    func checkIdentifier(_ text: String, _ node: JSONNode, _ path: JSONPath, what: String) {
        guard let bad = text.unicodeScalars.first(where: { $0.properties.generalCategory == .control || TerminalText.isBidiControl($0) }) else { return }
        let code = String(bad.value, radix: 16, uppercase: true)
        report("\(what) can't hold control or bidirectional formatting characters, got U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code) in \(node.value.shortDescription)",
               at: node.position, path: path)
    }

    func bool(_ node: JSONNode, _ path: JSONPath) -> Bool? {
        guard case .bool(let value) = node.value else {
            report("expected true or false, got \(node.value.shortDescription)", at: node.position, path: path)
            return nil
        }
        return value
    }

    /// An integer of at least `minimum`. `1.0` is not an integer here: number kinds matter.
    func integer(_ node: JSONNode, _ path: JSONPath, minimum: Int64? = nil, what: String = "an integer") -> Int64? {
        if case .largeInteger = node.value {
            report("expected \(what), got \(node.value.shortDescription), which is outside the 64-bit range", at: node.position, path: path)
            return nil
        }
        guard case .integer(let value) = node.value else {
            report("expected \(what), got \(node.value.shortDescription)", at: node.position, path: path)
            return nil
        }
        if let minimum, value < minimum {
            report("expected \(what) of at least \(minimum), got \(value)", at: node.position, path: path)
            return nil
        }
        return value
    }

    /// A seed: any unsigned 64-bit integer (SPEC §2: one seed decides everything; `--seed`
    /// takes the same range, so every seed a run records can be written back).
    func seed(_ node: JSONNode, _ path: JSONPath) -> UInt64? {
        if let value = node.value.unsignedValue { return value }
        report("expected a non-negative integer below 2^64 for the seed, got \(node.value.shortDescription)", at: node.position, path: path)
        return nil
    }

    /// Reports an integer literal beyond 64 bits where `what` is wanted. A plist or record
    /// integer is 64-bit signed, as on the device; a double is the way to write a larger number.
    func reportLargeInteger(_ node: JSONNode, _ path: JSONPath, what: String) {
        report("\(what) is a 64-bit signed integer, got \(node.value.shortDescription) (write it with a fraction, like 1.0e20, for a double)", at: node.position, path: path)
    }

    /// Like `integer`, as an `Int`.
    func int(_ node: JSONNode, _ path: JSONPath, minimum: Int64? = nil, what: String = "an integer") -> Int? {
        guard let value = integer(node, path, minimum: minimum, what: what) else { return nil }
        guard let result = Int(exactly: value) else {
            report("\(value) is too large", at: node.position, path: path)
            return nil
        }
        return result
    }

    /// An integer or a number with a fraction, finite.
    func number(_ node: JSONNode, _ path: JSONPath, what: String = "a number") -> Double? {
        switch node.value {
        case .integer(let value): return Double(value)
        // A number, if an imprecise one as a double; the caller's range check judges it.
        case .largeInteger(let digits): return Double(digits)
        case .double(let value) where value.isFinite: return value
        case .object, .array, .string, .bool, .null, .double:
            report("expected \(what), got \(node.value.shortDescription)", at: node.position, path: path)
            return nil
        }
    }

    /// A probability between 0 and 1.
    func probability(_ node: JSONNode, _ path: JSONPath) -> Double? {
        guard let value = number(node, path, what: "a probability between 0 and 1") else { return nil }
        guard value >= 0 && value <= 1 else {
            report("expected a probability between 0 and 1, got \(node.value.shortDescription)", at: node.position, path: path)
            return nil
        }
        return value
    }

    /// One of an enum's raw values, with a suggestion for near misses.
    func choice<Choice: RawRepresentable & CaseIterable>(_ node: JSONNode, _ path: JSONPath, _ type: Choice.Type) -> Choice? where Choice.RawValue == String {
        choice(node, path, names: Choice.allCases.map(\.rawValue)).flatMap { Choice(rawValue: $0) }
    }

    /// One of `names`, with a suggestion for near misses.
    func choice(_ node: JSONNode, _ path: JSONPath, names: [String]) -> String? {
        let expected = "one of " + names.map { "\"\($0)\"" }.joined(separator: ", ")
        guard case .string(let text) = node.value else {
            report("expected \(expected), got \(node.value.shortDescription)", at: node.position, path: path)
            return nil
        }
        guard names.contains(text) else {
            let hint = Suggestion.hint(for: text, in: names)
            report("expected \(expected), got \(node.value.shortDescription)\(hint)", at: node.position, path: path)
            return nil
        }
        return text
    }

    // MARK: - Units

    /// Which durations a place accepts.
    enum DurationRule {
        /// Offsets and jumps: any sign.
        case signed
        /// Times and delays: zero or more.
        case nonNegative
        /// Periods and timeouts: more than zero.
        case positive
    }

    /// A duration string with a unit (`"250ms"`, `"1.5s"`), or a bare integer of milliseconds.
    func duration(_ node: JSONNode, _ path: JSONPath, _ rule: DurationRule, what: String = "a duration") -> SimDuration? {
        let example = rule == .signed ? "like \"+5m\" or \"-30s\"" : "like \"250ms\" or \"1.5s\""
        let value: SimDuration
        switch node.value {
        case .string(let text):
            guard let parsed = Units.duration(text) else {
                if Units.isUnitlessDecimal(text) {
                    report("expected \(what) \(example) (units us, ms, s, m, h, d), got \(node.value.shortDescription): a number with a decimal point needs a unit (only a whole number means milliseconds)", at: node.position, path: path)
                } else if Units.isDurationShaped(text) {
                    reportTooLarge(node, path, what: what)
                } else {
                    let compound = ScenarioReader.compoundDuration(text).map { " (one unit per duration: write \"\($0)\")" } ?? ""
                    report("expected \(what) \(example) (units us, ms, s, m, h, d), got \(node.value.shortDescription)\(compound)", at: node.position, path: path)
                }
                return nil
            }
            value = parsed
        case .integer(let milliseconds):
            let (micros, overflow) = milliseconds.multipliedReportingOverflow(by: 1_000)
            guard !overflow else {
                reportTooLarge(node, path, what: what)
                return nil
            }
            value = SimDuration(microseconds: micros)
        case .largeInteger:
            reportTooLarge(node, path, what: what)
            return nil
        case .object, .array, .double, .bool, .null:
            report("expected \(what) \(example), got \(node.value.shortDescription)", at: node.position, path: path)
            return nil
        }
        guard value.microseconds.magnitude <= SimDuration.scenarioLimit.microseconds.magnitude else {
            reportTooLarge(node, path, what: what)
            return nil
        }
        switch rule {
        case .signed:
            break
        case .nonNegative:
            if value < .zero {
                report("\(what) can't be negative, got \(node.value.shortDescription)", at: node.position, path: path)
                return nil
            }
        case .positive:
            if value <= .zero {
                report("\(what) must be more than zero, got \(node.value.shortDescription)", at: node.position, path: path)
                return nil
            }
        }
        return value
    }

    /// `"1m30s"` as one duration in the largest unit that keeps it whole (`"90s"`), or nil when
    /// `text` is not several durations written together. Durations take one unit each.
    static func compoundDuration(_ text: String) -> String? {
        var parts: [String] = []
        var current = ""
        for character in text where character != " " {
            if character.isNumber || character == ".", let last = current.last, last.isLetter {
                parts.append(current); current = ""
            }
            current.append(character)
        }
        parts.append(current)
        guard parts.count > 1 else { return nil }
        var total: Int64 = 0
        for part in parts {
            guard part.last?.isLetter == true, let value = Units.duration(part), value >= .zero else { return nil }
            let (sum, overflow) = total.addingReportingOverflow(value.microseconds)
            guard !overflow else { return nil }
            total = sum
        }
        if total % 1_000_000 == 0 { return "\(total / 1_000_000)s" }
        if total % 1_000 == 0 { return "\(total / 1_000)ms" }
        return "\(total)us"
    }

    /// "too large" with the limit every duration and time of a scenario shares.
    private func reportTooLarge(_ node: JSONNode, _ path: JSONPath, what: String) {
        report("\(what) is too large, got \(node.value.shortDescription): durations and times are at most \(SimDuration.scenarioLimit) (\(Units.scenarioLimitWords)) either way",
               at: node.position, path: path)
    }

    /// A size string (`"3MB"`, `"512KB"`; binary units) or a bare integer of bytes; never negative.
    func size(_ node: JSONNode, _ path: JSONPath, what: String = "a size") -> Int64? {
        switch node.value {
        case .string(let text):
            if let value = Units.size(text) { return value }
            let negative = text.hasPrefix("-")
            report(negative ? "\(what) can't be negative, got \(node.value.shortDescription)"
                   : Units.isFractionalBytes(text) ? "expected \(what) in whole bytes, got \(node.value.shortDescription): a number of bytes has no fraction (write a whole number, or a larger unit such as \"1.5KB\")"
                   : Units.isSizeShaped(text) ? "\(what) is too large, got \(node.value.shortDescription): at most 2^63 - 1 bytes (8 EB)"
                   : "expected \(what) like \"3MB\" or \"512KB\" (units B, KB, MB, GB, KiB, MiB, GiB), got \(node.value.shortDescription)",
                   at: node.position, path: path)
            return nil
        case .integer(let bytes):
            guard bytes >= 0 else {
                report("\(what) can't be negative, got \(bytes)", at: node.position, path: path)
                return nil
            }
            return bytes
        case .largeInteger:
            report("\(what) is outside the 64-bit range, got \(node.value.shortDescription)", at: node.position, path: path)
            return nil
        case .object, .array, .double, .bool, .null:
            report("expected \(what) like \"3MB\" or a number of bytes, got \(node.value.shortDescription)", at: node.position, path: path)
            return nil
        }
    }

    /// A bandwidth string (`"10Mbps"`) or a bare integer of bits per second; more than zero.
    func bandwidth(_ node: JSONNode, _ path: JSONPath) -> Int64? {
        let value: Int64
        switch node.value {
        case .string(let text):
            guard let parsed = Units.bandwidth(text) else {
                if Units.isSizeShaped(text, bandwidth: true) {
                    report("a bandwidth is too large, got \(node.value.shortDescription): at most 2^63 - 1 bits per second", at: node.position, path: path)
                    return nil
                }
                report("expected a bandwidth like \"10Mbps\" or \"256kbps\" (units bps, kbps, Mbps, Gbps), got \(node.value.shortDescription)", at: node.position, path: path)
                return nil
            }
            value = parsed
        case .integer(let bits):
            value = bits
        case .largeInteger:
            report("a bandwidth is outside the 64-bit range, got \(node.value.shortDescription)", at: node.position, path: path)
            return nil
        case .object, .array, .double, .bool, .null:
            report("expected a bandwidth like \"10Mbps\", got \(node.value.shortDescription)", at: node.position, path: path)
            return nil
        }
        guard value > 0 else {
            report("a bandwidth must be more than zero, got \(node.value.shortDescription)", at: node.position, path: path)
            return nil
        }
        return value
    }
}
