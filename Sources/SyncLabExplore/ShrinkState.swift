import SyncLabJSON
import SyncLabResult
import SyncLabSimulation
import SyncLabRunner

/// The shrinker's working state: the smallest scenario so far and the runs spent.
struct ShrinkState {
    let target: ShrinkTarget
    let budget: Int
    let host: FuzzHost
    var best: JSON = .null
    var judged: ScenarioRunner.Judged?
    var runs = 0

    init(target: ShrinkTarget, budget: Int, host: FuzzHost) { self.target = target; self.budget = budget; self.host = host }

    /// Runs `candidate`; its judged run if it validates and still shows the target.
    mutating func probe(_ candidate: JSON) -> ScenarioRunner.Judged? {
        guard runs < budget else { return nil }
        runs += 1
        // The host's apps stay named whatever the shrinker removes.
        guard var run = host.load(host.hosting(candidate)) else { return nil }
        // A candidate that turns into a long retry loop is cut short: it would not be kept
        // (see `attempt`), and running it to the end could take minutes.
        if let current = judged { run.end.maxEvents = min(run.end.maxEvents, ShrinkState.eventLimit(current)) }
        let result = ScenarioRunner.run(run, options: host.options)
        if result.outcome.capHit && judged != nil { return nil }
        return Shrinker.shows(result, target) ? result : nil
    }

    /// Keeps `candidate` if it still shows the target.
    mutating func attempt(_ candidate: JSON) -> Bool {
        guard candidate != best, let judged = probe(candidate) else { return false }
        // Smaller means smaller to run too: a candidate that turns the run into a long retry
        // loop (a hundred thousand events) is not kept, even with fewer steps.
        if let current = self.judged, judged.outcome.statistics.events > ShrinkState.eventLimit(current) { return false }
        best = candidate
        self.judged = judged
        return true
    }

    /// The most events a kept candidate may run: 1.5 × the best so far, plus 1000.
    static func eventLimit(_ judged: ScenarioRunner.Judged) -> Int { judged.outcome.statistics.events * 3 / 2 + 1000 }

    var steps: [JSON] { best["steps"]?.elements ?? [] }

    // MARK: passes

    mutating func removeDevices() -> Bool {
        var changed = false
        var index = (best["devices"]?.elements?.count ?? 0) - 1
        while index >= 0 {
            let devices = best["devices"]?.elements ?? []
            if devices.count > 1, index < devices.count, let id = devices[index]["id"]?.text {
                var remaining = devices
                remaining.remove(at: index)
                let candidate = best.setting("devices", .array(remaining)).setting("steps", .array(steps.compactMap { ShrinkState.step($0, without: id) }))
                if attempt(candidate) { changed = true }
            }
            index -= 1
        }
        return changed
    }

    /// A step with device `id` taken out of its `device`; nil if nothing is left of it.
    static func step(_ step: JSON, without id: String) -> JSON? {
        guard let device = step["device"] else { return step }
        if device.text == id { return nil }
        if let list = device.elements {
            let rest = list.filter { $0.text != id }
            if rest.isEmpty { return nil }
            return step.setting("device", rest.count == 1 ? rest[0] : .array(rest))
        }
        return step
    }

    mutating func removeSteps() -> Bool {
        var changed = false
        var chunk = max(1, steps.count / 2)
        while chunk >= 1 {
            var start = steps.count - chunk
            while start >= 0 {
                var remaining = steps
                remaining.removeSubrange(start..<min(start + chunk, remaining.count))
                if !remaining.isEmpty, attempt(best.setting("steps", .array(remaining))) { changed = true }
                start -= chunk
            }
            if chunk == 1 { break }
            chunk /= 2
        }
        return removePairs() || changed
    }

    /// Steps that open a window and the step that closes it on the same device.
    static let closing = ["device.crash": "device.restart", "airplane.on": "airplane.off", "app.delete": "app.install",
                          "account.signOut": "account.signIn"]

    /// Removes a window's two steps together (a crash without its restart would not validate).
    mutating func removePairs() -> Bool {
        var changed = false
        var index = steps.count - 1
        while index >= 0 {
            let current = steps
            if index < current.count, let op = current[index]["op"]?.text, let close = ShrinkState.closing[op] {
                let device = current[index]["device"]
                if let partner = current.indices.first(where: { $0 > index && current[$0]["op"]?.text == close && current[$0]["device"] == device }) {
                    var remaining = current
                    remaining.remove(at: partner)
                    remaining.remove(at: index)
                    if !remaining.isEmpty, attempt(best.setting("steps", .array(remaining))) { changed = true }
                }
            }
            index -= 1
        }
        return changed
    }

    mutating func removeMembers() -> Bool {
        var changed = false
        for key in ["network", "limits", "accounts", "end"] {
            if best[key] != nil, attempt(best.removing(key)) { changed = true }
        }
        for section in ["network", "limits"] {
            for field in best[section]?.fields ?? [] {
                guard let current = best[section] else { break }
                if attempt(best.setting(section, current.removing(field.key))) { changed = true; continue }
                for inner in field.value.fields ?? [] {
                    guard let section2 = best[section], let nested = section2[field.key] else { break }
                    if attempt(best.setting(section, section2.setting(field.key, nested.removing(inner.key)))) { changed = true }
                }
            }
        }
        changed = editEach("devices", { device, _ in
            (device.fields ?? []).filter { $0.key != "id" }.map { device.removing($0.key) }
                + (device["clock"]?.fields ?? []).map { device.setting("clock", device["clock"]!.removing($0.key)) }
        }) || changed
        changed = editEach("steps", { step, _ in
            var candidates: [JSON] = []
            for key in ["fields", "values"] {
                guard let object = step[key], let fields = object.fields, fields.count > 1 else { continue }
                candidates += fields.map { step.setting(key, object.removing($0.key)) }
            }
            if let records = step["records"]?.elements, records.count > 1 {
                candidates += records.indices.map { index in
                    var rest = records
                    rest.remove(at: index)
                    return step.setting("records", .array(rest))
                }
            }
            return candidates
        }) || changed
        return changed
    }

    /// Tries each candidate `edits` makes of each element of the top-level list `key`, keeping
    /// every one that holds.
    mutating func editEach(_ key: String, _ edits: (JSON, [JSON]) -> [JSON]) -> Bool {
        var changed = false
        var index = 0
        while index < (best[key]?.elements?.count ?? 0) {
            var candidateIndex = 0
            while true {
                let elements = best[key]?.elements ?? []
                let candidates = edits(elements[index], elements)
                guard candidateIndex < candidates.count else { break }
                var edited = elements
                edited[index] = candidates[candidateIndex]
                if attempt(best.setting(key, .array(edited))) { changed = true } else { candidateIndex += 1 }
            }
            index += 1
        }
        return changed
    }

    mutating func simplifyValues() -> Bool {
        var changed = false
        if let latency = best["network"]?["latency"], latency.fields != nil {
            if attempt(best.setting("network", best["network"]!.setting("latency", .string("50ms")))) { changed = true }
        }
        changed = editEach("devices", { device, _ in
            guard let latency = device["network"]?["latency"], latency.fields != nil else { return [] }
            return [device.setting("network", device["network"]!.setting("latency", .string("50ms")))]
        }) || changed
        // A shortened value must stay distinct from every other value written: two devices
        // saving the same text is a different story (equal values lose nothing), and a shrink
        // that made them equal would report that story instead of the bug.
        changed = editEach("steps", { step, steps in
            let written = Set(steps.flatMap(ShrinkState.writtenValues).compactMap(\.text))
            var candidates: [JSON] = []
            for key in ["content", "value", "text"] {
                if let shorter = ShrinkState.shorter(step[key]), !written.contains(shorter.text ?? "") { candidates.append(step.setting(key, shorter)) }
            }
            for key in ["fields", "values"] {
                guard let object = step[key] else { continue }
                for field in object.fields ?? [] {
                    if let shorter = ShrinkState.shorter(field.value), !written.contains(shorter.text ?? "") { candidates.append(step.setting(key, object.setting(field.key, shorter))) }
                }
            }
            return candidates
        }) || changed
        return changed
    }

    /// The text values a step writes (contents, values, appended text, record fields).
    static func writtenValues(_ step: JSON) -> [JSON] {
        var values = ["content", "value", "text"].compactMap { step[$0] }
        for key in ["fields", "values"] { values += (step[key]?.fields ?? []).map(\.value) }
        return values.filter { $0.text != nil }
    }

    /// A shorter string (half its length, at least one character), or nil.
    static func shorter(_ value: JSON?) -> JSON? {
        guard let text = value?.text, text.count > 2 else { return nil }
        let lines = text.hasSuffix("\n")
        let body = lines ? String(text.dropLast()) : text
        guard body.count > 1 else { return nil }
        return .string(String(body.prefix(body.count / 2)) + (lines ? "\n" : ""))
    }

    mutating func pullTimesIn() -> Bool {
        var changed = false
        // All step times halved at once, then each step moved halfway to the one before it.
        let halved = steps.map { step -> JSON in
            guard let at = step["at"]?.text, let (sign, value) = Milliseconds.parse(at) else { return step }
            return step.setting("at", .string(Milliseconds.text(sign, value / 2)))
        }
        if attempt(best.setting("steps", .array(halved))) { changed = true }
        var previous = 0
        var index = 0
        while index < steps.count {
            let step = steps[index]
            if let at = step["at"]?.text, let (sign, value) = Milliseconds.parse(at), sign.isEmpty {
                let earlier = previous + (value - previous) / 2
                var edited = steps
                if earlier < value {
                    edited[index] = step.setting("at", .string(Milliseconds.text("", earlier)))
                    if attempt(best.setting("steps", .array(edited))) { changed = true }
                }
                previous = Milliseconds.parse(steps[index]["at"]?.text ?? "").map(\.value) ?? previous
            }
            index += 1
        }
        changed = editEach("steps", { step, _ in
            ["for", "retryAfter", "by"].compactMap { key -> JSON? in
                guard let text = step[key]?.text, let (sign, value) = Milliseconds.parse(text), value > 1 else { return nil }
                return step.setting(key, .string(Milliseconds.text(sign, value / 2)))
            }
        }) || changed
        return changed
    }
}
