import SyncLabJSON
import SyncLabKernel
import SyncLabProtocol

/// Reads `steps` (SPEC §5): types every op's arguments, expands `every`/`times`, device lists,
/// `"*"`, `${i}` and `${device}`, sorts by (time, file order), and checks device lifecycles.
struct StepResolver {
    /// What an op takes.
    struct OpSpec {
        var name: String
        /// Argument keys the op accepts, beyond `at`, `device`, `op`, `every`, `times`.
        var arguments: [String]
        /// Arguments that must be present.
        var required: [String]
        /// `cloud.*` ops act on the cloud: they take no `device`.
        var onCloud: Bool

        init(_ name: String, _ arguments: [String] = [], required: [String] = [], onCloud: Bool = false) {
            self.name = name; self.arguments = arguments; self.required = required; self.onCloud = onCloud
        }
    }

    /// Every op of SPEC §5, in the order the spec lists them.
    static let ops: [OpSpec] = [
        OpSpec("airplane.on"),
        OpSpec("airplane.off"),
        OpSpec("network.set", ScenarioReader.linkKeys),
        OpSpec("app.foreground"),
        OpSpec("cloud.clock.set", ["offset"], required: ["offset"], onCloud: true),
        OpSpec("clock.set", ["offset"], required: ["offset"]),
        OpSpec("clock.jump", ["by"], required: ["by"]),
        OpSpec("device.crash"),
        OpSpec("device.restart"),
        OpSpec("app.delete"),
        OpSpec("app.install"),
        OpSpec("account.signOut"),
        OpSpec("account.signIn", ["account"], required: ["account"]),
        OpSpec("cloud.outage", ["for"], required: ["for"], onCloud: true),
        OpSpec("cloud.throttle", ["for", "retryAfter", "zone"], required: ["for", "retryAfter"], onCloud: true),
        OpSpec("cloud.expireTokens", onCloud: true),
        OpSpec("kvs.set", ["key", "value"], required: ["key", "value"]),
        OpSpec("kvs.setMany", ["values"], required: ["values"]),
        OpSpec("kvs.remove", ["key"], required: ["key"]),
        OpSpec("kvs.increment", ["key", "by"], required: ["key"]),
        OpSpec("kvs.synchronize"),
        OpSpec("doc.save", ["path", "content"], required: ["path", "content"]),
        OpSpec("doc.append", ["path", "text"], required: ["path", "text"]),
        OpSpec("doc.delete", ["path"], required: ["path"]),
        OpSpec("zone.create", ["zone", "database"], required: ["zone"]),
        OpSpec("zone.delete", ["zone", "byUser", "database"], required: ["zone"]),
        OpSpec("record.save", ["zone", "type", "name", "fields", "database"], required: ["type", "name", "fields"]),
        OpSpec("record.delete", ["zone", "name", "database"], required: ["name"]),
        OpSpec("records.saveAtomic", ["zone", "records", "delete", "database"], required: ["zone"]),
        OpSpec("subscription.create", ["database"]),
        OpSpec("assert", ["kvs", "documents", "records", "database"]),
    ]

    static let stepKeys = ["at", "device", "op", "every", "times"]

    /// The most steps a scenario may have after expansion, counting a step once per device it
    /// runs on and once per repetition (`times` × devices). Far beyond any hand-written or
    /// generated scenario (the largest committed one has a few hundred), and small enough that
    /// the expanded steps fit in memory (about 200 bytes each) and the run finishes: a 250-byte
    /// file with two `times: 1000000` steps would otherwise expand to two million steps and
    /// gigabytes before the run began.
    static let expandedStepsMax = 1_000_000

    /// This resolver's limit: `expandedStepsMax`, smaller in tests of the boundary.
    var expandedStepsLimit = StepResolver.expandedStepsMax

    /// What the expansion has counted so far, and where the limit was first crossed.
    private struct ExpansionBudget {
        var total = 0
        /// The step that took the total past `expandedStepsMax`: from then on nothing expands.
        var crossedAt: (position: SourcePosition?, path: JSONPath, count: Int)?
    }

    /// A step after expansion, with what lifecycle messages need.
    private struct Expanded {
        var step: Step
        /// Generation order: file order, then repetition, then device (ties at equal times).
        var order: Int
        var deviceNode: JSONNode?
        var path: JSONPath
    }

    let reader: ScenarioReader
    let deviceIDs: [String]
    let accounts: [String]
    /// The latest time a step may have; nil when `duration` itself was invalid.
    let duration: SimDuration?
    /// Per device, since when it is crashed before the first step (a stepping world's devices).
    var crashedBefore: [SimInstant?] = []
    /// Device id → index, so each step's lookup is O(1) (20,000 devices × 40,000 steps).
    private let deviceIndex: [String: Int]

    init(reader: ScenarioReader, deviceIDs: [String], accounts: [String], duration: SimDuration?) {
        self.reader = reader; self.deviceIDs = deviceIDs; self.accounts = accounts; self.duration = duration
        var index: [String: Int] = [:]
        for (position, id) in deviceIDs.enumerated() where index[id] == nil { index[id] = position }
        deviceIndex = index
    }

    /// All steps, expanded and sorted by (time, file order). Errors go to the reader.
    func resolve(_ node: JSONNode, _ path: JSONPath) -> [Step] {
        guard case .array(let elements) = node.value else {
            reader.report("expected a list of steps such as \(ShapeExample.steps), got \(node.value.shortDescription)", at: node.position, path: path)
            return []
        }
        var expanded: [Expanded] = []
        var budget = ExpansionBudget()
        for (index, element) in elements.enumerated() {
            resolveStep(element, index: index, path: path.index(index), into: &expanded, budget: &budget)
        }
        if let crossed = budget.crossedAt {
            reader.report("too many steps after expansion: \(budget.total) (limit \(expandedStepsLimit)); this step adds \(crossed.count) (repetitions × devices) and takes the total past the limit: split the scenario or use fewer repetitions",
                          at: crossed.position, path: crossed.path)
            return []
        }
        expanded.sort { ($0.step.at, $0.order) < ($1.step.at, $1.order) }
        checkLifecycles(expanded)
        return expanded.map(\.step)
    }

    /// Types one step and appends its expansions, unless they would take `budget` past
    /// `expandedStepsMax` (then only its count is added, and its arguments are still checked).
    private func resolveStep(_ node: JSONNode, index: Int, path: JSONPath, into expanded: inout [Expanded], budget: inout ExpansionBudget) {
        guard let allMembers = node.members else {
            reader.report("expected a step (an object with \"at\", \"op\", …), got \(node.value.shortDescription)", at: node.position, path: path)
            return
        }
        // The op decides which keys are allowed, so read it first.
        var spec: OpSpec?
        if let opNode = reader.required(allMembers, "op", in: node, path, what: "a step"),
           let name = reader.string(opNode, path.key("op"), nonEmpty: true, what: "an op name like \"kvs.set\"") {
            spec = StepResolver.ops.first { $0.name == name }
            if spec == nil {
                reader.report("unknown op '\(name)'\(StepResolver.opHint(for: name, in: allMembers))", at: opNode.position, path: path.key("op"))
            }
        }
        if let spec {
            _ = reader.members(node, path, allowed: StepResolver.stepKeys + spec.arguments, what: StepResolver.aStep(spec.name), hint: { StepResolver.keyHint(for: $0, in: spec) })
            // The example once per step, on its first missing key.
            var example = ShapeExample.step(spec.name).map { " (\(StepResolver.aStep(spec.name)) looks like \($0))" } ?? ""
            for key in spec.required where !allMembers.contains(where: { $0.key == key }) {
                reader.report("missing required key '\(key)' for op \(spec.name)\(example)", at: node.position, path: path.key(key))
                example = ""
            }
        }
        let at = reader.required(allMembers, "at", in: node, path, what: "a step")
            .flatMap { reader.duration($0, path.key("at"), .nonNegative, what: "a step time") }

        // Devices.
        let deviceNode = node["device"]
        var devices: [Int]?
        if let spec, spec.onCloud {
            if let deviceNode {
                reader.report("\(spec.name) acts on the cloud: remove 'device'", at: deviceNode.position, path: path.key("device"))
            }
            devices = []
        } else if let deviceNode {
            devices = deviceList(deviceNode, path.key("device"))
        } else if spec != nil {
            reader.report("missing required key 'device' (an id, a list of ids, or \"*\")", at: node.position, path: path.key("device"))
        }

        // Repetition.
        var every: SimDuration?
        var times = 1
        let everyNode = node["every"], timesNode = node["times"]
        if let everyNode { every = reader.duration(everyNode, path.key("every"), .positive, what: "a repetition period") }
        if let timesNode, let count = reader.int(timesNode, path.key("times"), minimum: 1, what: "a repetition count") {
            times = count
            if count > 1_000_000 {
                reader.report("at most 1000000 repetitions, got \(count)", at: timesNode.position, path: path.key("times"))
                times = 1
            }
        }
        if everyNode != nil && timesNode == nil {
            reader.report("'every' needs 'times' (how many repetitions)", at: everyNode!.position, path: path.key("times"))
        }
        if timesNode != nil && everyNode == nil {
            reader.report("'times' needs 'every' (the period between repetitions)", at: timesNode!.position, path: path.key("every"))
        }

        guard let spec else { return }
        // A bad time or device does not hide the step's other mistakes (SPEC §5: every error
        // of a file at once): its arguments are checked too, when they hold no placeholder.
        func checkArgumentsOnly() {
            let arguments = allMembers.filter { !StepResolver.stepKeys.contains($0.key) }
            if !StepTemplate.contains("${", in: arguments) { _ = op(spec, arguments, node, path) }
        }
        guard let at, let devices else {
            checkArgumentsOnly()
            return
        }
        let period = every ?? .zero

        // Times within the scenario's duration.
        if let duration {
            let last = SimInstant(microseconds: at.microseconds) + period * Int64(times - 1)
            if at > duration {
                reader.report("step time \(at) is after the scenario's duration \(duration) (raise \"duration\" to allow later steps)", at: node["at"]!.position, path: path.key("at"))
                checkArgumentsOnly()
                return
            } else if last.microseconds > duration.microseconds, let timesNode {
                let firstLate = (duration.microseconds - at.microseconds) / max(period.microseconds, 1) + 1
                reader.report("repetition \(firstLate) (${i}=\(firstLate)) falls at \(at + period * firstLate), after the scenario's duration \(duration)", at: timesNode.position, path: path.key("times"))
                checkArgumentsOnly()
                return
            }
        }

        let arguments = allMembers.filter { !StepResolver.stepKeys.contains($0.key) }
        // A cloud op runs on no device: its `${device}` stood for nothing and stayed in the value.
        let unknown = StepTemplate.unknownPlaceholders(in: arguments, path, allowed: spec.onCloud ? ["i"] : StepTemplate.placeholders)
        for placeholder in unknown {
            let message = placeholder.text == "${device}"
                ? "${device} stands for nothing in \(spec.name): a cloud op runs on no device (only ${i}, the repetition, is expanded)"
                : "unknown placeholder \(placeholder.text): a step can use ${i} (the repetition, from 0) and ${device} (the device it runs on)"
            reader.report(message, at: placeholder.position, path: placeholder.path)
        }
        if !unknown.isEmpty { return }
        let usesIndex = StepTemplate.contains("${i}", in: arguments)
        let usesDevice = StepTemplate.contains("${device}", in: arguments) && !devices.isEmpty
        // Counted before anything is expanded, so a huge step costs nothing past the limit.
        let count = times * max(devices.count, 1)
        budget.total += count
        if budget.crossedAt == nil && budget.total > expandedStepsLimit {
            budget.crossedAt = (timesNode?.position ?? node.position, timesNode == nil ? path : path.key("times"), count)
        }
        if budget.crossedAt != nil {
            // Past the limit: the step's arguments are still checked (every error at once), once.
            _ = op(spec, StepTemplate.expand(arguments, index: 0, device: devices.first.map { deviceIDs[$0] } ?? "${device}"), node, path)
            return
        }
        let deviceGroups: [[Int]] = usesDevice ? devices.map { [$0] } : [devices]
        var baseOp: StepOp?
        if !usesIndex && !usesDevice {
            baseOp = op(spec, arguments, node, path)
            if baseOp == nil { return }
        }
        for repetition in 0..<times {
            for group in deviceGroups {
                let resolved: StepOp
                if let baseOp {
                    resolved = baseOp
                } else {
                    let deviceName = usesDevice ? deviceIDs[group[0]] : "${device}"
                    let substituted = StepTemplate.expand(arguments, index: repetition, device: deviceName)
                    let collisions = StepTemplate.collidingKeys(arguments, substituted, path)
                    for collision in collisions {
                        let which = [usesDevice ? "on device \(deviceName)" : nil, usesIndex ? "${i}=\(repetition)" : nil].compactMap { $0 }.joined(separator: ", ")
                        reader.report("key \(JSONValue.string(collision.key).shortDescription) appears twice in this object once its placeholders are expanded (\(which)): a duplicate key is an error", at: collision.position, path: collision.path)
                    }
                    guard collisions.isEmpty, let typed = op(spec, substituted, node, path) else { continue }
                    resolved = typed
                }
                let stepAt = SimInstant(microseconds: at.microseconds) + period * Int64(repetition)
                let source = timesNode == nil ? path.description : "\(path)#\(repetition)"
                let step = Step(at: stepAt, devices: group, op: resolved, source: source, fileIndex: index)
                expanded.append(Expanded(step: step, order: expanded.count, deviceNode: deviceNode, path: path))
            }
        }
    }

    /// What to say after `unknown op 'NAME'`: ops are dotted names, so a first word alone
    /// (`"op": "airplane", "on": true`) lists the ops that start with it, picking the one a key
    /// or value of the step names; a last word alone (`"set"`) lists the ops that end with it;
    /// anything else gets the closest op, or where the list is.
    static func opHint(for name: String, in members: [JSONMember]) -> String {
        let names = ops.map(\.name)
        func quoted(_ list: [String]) -> String { list.map { "\"\($0)\"" }.joined(separator: ", ") }
        let family = names.filter { $0.hasPrefix(name + ".") }
        if !family.isEmpty {
            // `"on": true` or `"mode": "on"` next to `"op": "airplane"` names `airplane.on`.
            let named = members.compactMap { member -> String? in
                if family.contains("\(name).\(member.key)"), case .bool(true) = member.value.value { return "\(name).\(member.key)" }
                if case .string(let text) = member.value.value, family.contains("\(name).\(text)") { return "\(name).\(text)" }
                return nil
            }.first
            let pick = named.map { " (here \"op\": \"\($0)\")" } ?? ""
            return ": ops are dotted names, one of \(quoted(family))\(pick)"
        }
        let endings = names.filter { $0.hasSuffix("." + name) }
        if !endings.isEmpty { return "; did you mean \(endings.count == 1 ? "" : "one of ")\(quoted(endings))?" }
        let hint = Suggestion.hint(for: name, in: names)
        return hint.isEmpty ? " (docs/SCENARIOS.md lists every op)" : hint
    }

    /// What to say after `unknown key 'KEY' in a OP step`, when there is something better than the
    /// closest key: a known slip (`time`), an argument of a sibling op (`text` on `doc.save` is
    /// `doc.append`'s), or a record field written outside `fields`. Nil: the closest key or the list.
    static func keyHint(for key: String, in spec: OpSpec) -> String? {
        if let hint = ShapeExample.stepKeyHints[key] { return hint }
        if key == "name" && spec.arguments.contains("zone") && !spec.arguments.contains("name") { return "; the zone's name is 'zone', like \"zone\": \"Todos\"" }
        if ["duration", "length"].contains(key) && spec.arguments.contains("for") { return "; how long is 'for', like \"for\": \"2m\"" }
        if key == "network" && spec.name == "network.set" { return "; network.set takes the link settings directly, like {\"op\": \"network.set\", \"loss\": 0.5}" }
        guard Suggestion.closest(to: key, in: stepKeys + spec.arguments) == nil else { return nil }
        let family = spec.name.split(separator: ".").first.map(String.init) ?? spec.name
        if let sibling = ops.first(where: { $0.name != spec.name && $0.name.hasPrefix(family + ".") && $0.arguments.contains(key) }) {
            // An op without arguments (account.signOut beside account.signIn) says so, not "takes )".
            let takes = spec.arguments.isEmpty ? "takes no arguments" : "takes \(spec.arguments.joined(separator: ", "))"
            return "; '\(key)' is an argument of \(sibling.name) (\(spec.name) \(takes))"
        }
        if spec.name == "record.save" {
            return "; a record's fields go under 'fields', like \"fields\": {\"\(key)\": …}"
        }
        if spec.name == "assert" {
            return key == "final" ? "; an assert checks the device's view directly, like \"kvs\": {\"theme\": …} ('final' is for expect)"
                : "; the items an assert checks go under their store, like \"kvs\": {\"\(key)\": …} (or \"documents\", \"records\")"
        }
        return nil
    }

    /// "a kvs.set step", "an app.delete step": the article an op's name takes in messages.
    static func aStep(_ op: String) -> String {
        let vowel = op.first.map { "aeiou".contains($0) } ?? false
        return "\(vowel ? "an" : "a") \(op) step"
    }

    /// `"A"`, `["A", "B"]` or `"*"` → device indices in the order written (`*`: declaration order).
    private func deviceList(_ node: JSONNode, _ path: JSONPath) -> [Int]? {
        switch node.value {
        case .string("*"):
            return Array(deviceIDs.indices)
        case .string(let id):
            return device(id, node, path).map { [$0] }
        case .array(let elements):
            guard !elements.isEmpty else {
                reader.report("expected at least one device id", at: node.position, path: path)
                return nil
            }
            var result: [Int] = []
            var failed = false
            for (index, element) in elements.enumerated() {
                guard let id = reader.string(element, path.index(index), nonEmpty: true, what: "a device id"),
                      let device = device(id, element, path.index(index)) else { failed = true; continue }
                if result.contains(device) {
                    reader.report("device \"\(id)\" is listed twice", at: element.position, path: path.index(index))
                    failed = true
                    continue
                }
                result.append(device)
            }
            return failed ? nil : result
        case .object, .integer, .largeInteger, .double, .bool, .null:
            reader.report("expected a device id, a list of ids, or \"*\", got \(node.value.shortDescription)", at: node.position, path: path)
            return nil
        }
    }

    private func device(_ id: String, _ node: JSONNode, _ path: JSONPath) -> Int? {
        if let index = deviceIndex[id] { return index }
        // "all" is not a device id, and its closest id is no help.
        let hint = ["all", "every", "any"].contains(id.lowercased()) ? "; every device is \"*\"" : Suggestion.hint(for: id, in: deviceIDs)
        reader.report("unknown device \(node.value.shortDescription)\(hint) (devices: \(Suggestion.list(deviceIDs)))", at: node.position, path: path)
        return nil
    }

    // MARK: - Names

    /// A zone name: not empty and without `/`, which separates zone and record in `ZONE/NAME`
    /// (zone `a/b` with record `c` and zone `a` with record `b/c` would be one item).
    private func zoneName(_ node: JSONNode, _ path: JSONPath) -> String? {
        guard let zone = reader.string(node, path, nonEmpty: true, what: "a zone name") else { return nil }
        guard !zone.contains("/") else {
            reader.report("expected a zone name without \"/\" (it separates zone and record in ZONE/NAME), got \"\(zone)\"", at: node.position, path: path)
            return nil
        }
        reader.checkSpelling(zone, .zone, at: node.position, path: path)
        return zone
    }

    /// A document path (`ScenarioReader.isDocumentPath`).
    private func documentPath(_ node: JSONNode, _ path: JSONPath) -> String? {
        guard let text = reader.string(node, path, nonEmpty: true, what: "a document path") else { return nil }
        guard ScenarioReader.isDocumentPath(text) else {
            reader.report(ScenarioReader.documentPathError(text), at: node.position, path: path)
            return nil
        }
        reader.checkSpelling(text, .path, at: node.position, path: path)
        return text
    }

    // MARK: - Op arguments

    /// Types the op's (expanded) arguments. Missing required keys were reported already.
    private func op(_ spec: OpSpec, _ arguments: [JSONMember], _ node: JSONNode, _ path: JSONPath) -> StepOp? {
        func argument(_ key: String) -> JSONNode? { arguments.first { $0.key == key }?.value }
        func text(_ key: String, what: String) -> String? {
            argument(key).flatMap { reader.string($0, path.key(key), nonEmpty: true, what: what) }
        }
        /// A name argument (`key`, `name`), its spelling checked against the file's others.
        func nameArgument(_ key: String, what: String, kind: NameSpellings.Kind) -> String? {
            guard let node = argument(key), let text = reader.string(node, path.key(key), nonEmpty: true, what: what) else { return nil }
            reader.checkSpelling(text, kind, at: node.position, path: path.key(key))
            return text
        }
        func database() -> DatabaseScope? {
            guard let value = argument("database") else { return .private }
            return reader.choice(value, path.key("database"), DatabaseScope.self)
        }
        func zone(default defaultZone: String?) -> String? {
            guard let value = argument("zone") else { return defaultZone }
            return zoneName(value, path.key("zone"))
        }
        func documentPath() -> String? { argument("path").flatMap { self.documentPath($0, path.key("path")) } }
        switch spec.name {
        case "airplane.on": return .airplaneOn
        case "airplane.off": return .airplaneOff
        case "network.set":
            let override = reader.linkOverride(JSONNode(value: .object(arguments), position: node.position), path, what: "network.set")
            if arguments.isEmpty {
                reader.report("network.set changes nothing: give latency, loss, bandwidth, pushLatency, pushLoss, reorder or timeout", at: node.position, path: path)
                return nil
            }
            return .networkSet(override)
        case "app.foreground": return .appForeground
        case "cloud.clock.set": return argument("offset").flatMap { reader.duration($0, path.key("offset"), .signed, what: "a clock offset") }.map { .cloudClockSet(offset: $0) }
        case "clock.set": return argument("offset").flatMap { reader.duration($0, path.key("offset"), .signed, what: "a clock offset") }.map { .clockSet(offset: $0) }
        case "clock.jump": return argument("by").flatMap { reader.duration($0, path.key("by"), .signed, what: "a clock jump") }.map { .clockJump(by: $0) }
        case "device.crash": return .deviceCrash
        case "device.restart": return .deviceRestart
        case "app.delete": return .appDelete
        case "app.install": return .appInstall
        case "account.signOut": return .accountSignOut
        case "account.signIn":
            guard let valueNode = argument("account"), let name = reader.string(valueNode, path.key("account"), nonEmpty: true, what: "an account name") else { return nil }
            guard let index = accounts.firstIndex(of: name) else {
                reader.report("unknown account \"\(name)\"\(Suggestion.hint(for: name, in: accounts)) (accounts: \(Suggestion.list(accounts)))", at: valueNode.position, path: path.key("account"))
                return nil
            }
            return .accountSignIn(account: index)
        case "cloud.outage": return argument("for").flatMap { reader.duration($0, path.key("for"), .positive, what: "an outage length") }.map { .cloudOutage(duration: $0) }
        case "cloud.throttle":
            let length = argument("for").flatMap { reader.duration($0, path.key("for"), .positive, what: "a throttling length") }
            let retryAfter = argument("retryAfter").flatMap { reader.duration($0, path.key("retryAfter"), .nonNegative, what: "a retry-after delay") }
            let zone = argument("zone").flatMap { zoneName($0, path.key("zone")) }
            guard let length, let retryAfter, argument("zone") == nil || zone != nil else { return nil }
            return .cloudThrottle(duration: length, retryAfter: retryAfter, zone: zone)
        case "cloud.expireTokens": return .cloudExpireTokens
        case "kvs.set":
            let key = nameArgument("key", what: "a key", kind: .key)
            let value = argument("value").flatMap { reader.plistValue($0, path.key("value")) }
            guard let key, let value else { return nil }
            return .kvsSet(entries: [PlistEntry(key: key, value: value)])
        case "kvs.setMany":
            guard let valuesNode = argument("values") else { return nil }
            guard let members = valuesNode.members else {
                reader.report("expected values (an object of key → value), got \(valuesNode.value.shortDescription)", at: valuesNode.position, path: path.key("values"))
                return nil
            }
            guard !members.isEmpty else {
                reader.report("kvs.setMany needs at least one key", at: valuesNode.position, path: path.key("values"))
                return nil
            }
            var entries: [PlistEntry] = []
            var failed = false
            for member in members {
                if member.key.isEmpty {
                    reader.report("a key can't be empty", at: member.keyPosition, path: path.key("values").key(member.key))
                    failed = true
                } else if let value = reader.plistValue(member.value, path.key("values").key(member.key)) {
                    reader.checkSpelling(member.key, .key, at: member.keyPosition, path: path.key("values").key(member.key))
                    entries.append(PlistEntry(key: member.key, value: value))
                } else {
                    failed = true
                }
            }
            guard !failed else { return nil }
            return .kvsSet(entries: entries.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }, many: true)
        case "kvs.remove": return nameArgument("key", what: "a key", kind: .key).map { .kvsRemove(key: $0) }
        case "kvs.increment":
            let key = nameArgument("key", what: "a key", kind: .key)
            var by: Int64? = 1
            if let byNode = argument("by") { by = reader.integer(byNode, path.key("by"), what: "an integer increment") }
            guard let key, let by else { return nil }
            return .kvsIncrement(key: key, by: by)
        case "kvs.synchronize": return .kvsSynchronize
        case "doc.save":
            let documentPath = documentPath()
            let content = argument("content").flatMap { reader.documentContent($0, path.key("content")) }
            guard let documentPath, let content else { return nil }
            return .docSave(path: documentPath, content: content)
        case "doc.append":
            let documentPath = documentPath()
            let appended = argument("text").flatMap { reader.string($0, path.key("text"), what: "text to append") }
            guard let documentPath, let appended else { return nil }
            return .docAppend(path: documentPath, text: appended)
        case "doc.delete": return documentPath().map { .docDelete(path: $0) }
        case "zone.create":
            guard let database = database(), let zone = zone(default: nil) else { return nil }
            return .zoneCreate(database: database, zone: zone)
        case "zone.delete":
            let database = database(), zone = zone(default: nil)
            var byUser: Bool? = false
            if let byUserNode = argument("byUser") { byUser = reader.bool(byUserNode, path.key("byUser")) }
            guard let database, let zone, let byUser else { return nil }
            return .zoneDelete(database: database, zone: zone, byUser: byUser)
        case "record.save":
            let database = database(), zone = zone(default: "_defaultZone")
            let type = text("type", what: "a record type")
            let name = nameArgument("name", what: "a record name", kind: .record)
            let fields = argument("fields").flatMap { reader.fieldAssignments($0, path.key("fields")) }
            guard let database, let zone, let type, let name, let fields else { return nil }
            return .recordSave(RecordFieldsChange(database: database, zone: zone, type: type, name: name, fields: fields))
        case "record.delete":
            let database = database(), zone = zone(default: "_defaultZone")
            let name = nameArgument("name", what: "a record name", kind: .record)
            guard let database, let zone, let name else { return nil }
            return .recordDelete(database: database, zone: zone, name: name)
        case "records.saveAtomic":
            return saveAtomic(database(), zone(default: nil), argument("records"), argument("delete"), node, path)
        case "subscription.create": return database().map { .subscriptionCreate(database: $0) }
        case "assert":
            // `database` picks where `records` are read, as it does for the record ops.
            let items = arguments.filter { $0.key != "database" }
            guard !items.isEmpty else {
                reader.report("assert checks nothing: give kvs, documents or records", at: node.position, path: path)
                return nil
            }
            let named = argument("database").map { reader.choice($0, path.key("database"), DatabaseScope.self) }
            let object = JSONNode(value: .object(items), position: node.position)
            let values = reader.itemValues(object, path, what: "an assert")
            // `named` is nil when not given, `.some(nil)` when given but not a database (reported).
            guard let values, named.map({ $0 != nil }) ?? true else { return nil }
            return .assert(AssertSpec(kvs: values.kvs, documents: values.documents, records: values.records, database: named ?? nil))
        default:
            preconditionFailure("op \(spec.name) is in the table but has no reader")
        }
    }

    private func saveAtomic(_ database: DatabaseScope?, _ zone: String?, _ recordsNode: JSONNode?, _ deleteNode: JSONNode?, _ node: JSONNode, _ path: JSONPath) -> StepOp? {
        var saves: [RecordFieldsChange] = []
        var deletes: [String] = []
        var failed = false
        if let recordsNode {
            if case .array(let elements) = recordsNode.value {
                for (index, element) in elements.enumerated() {
                    let recordPath = path.key("records").index(index)
                    guard let members = reader.members(element, recordPath, allowed: ScenarioKeys.atomicRecord, what: "a record", example: ShapeExample.atomicRecord) else { failed = true; continue }
                    let type = reader.required(members, "type", in: element, recordPath, what: "a record").flatMap { reader.string($0, recordPath.key("type"), nonEmpty: true, what: "a record type") }
                    let nameNode = reader.required(members, "name", in: element, recordPath, what: "a record")
                    let name = nameNode.flatMap { reader.string($0, recordPath.key("name"), nonEmpty: true, what: "a record name") }
                    if let name, let nameNode { reader.checkSpelling(name, .record, at: nameNode.position, path: recordPath.key("name")) }
                    let fields = reader.required(members, "fields", in: element, recordPath, what: "a record").flatMap { reader.fieldAssignments($0, recordPath.key("fields")) }
                    if let name, let nameNode, let first = saves.firstIndex(where: { $0.name == name }) {
                        // Not merged silently: one operation names a record once, as in CloudKit.
                        reader.report("record \(nameNode.value.shortDescription) is saved twice in one records.saveAtomic (first at records[\(first)]): give all its fields in one entry", at: nameNode.position, path: recordPath.key("name"))
                        failed = true
                    }
                    guard let type, let name, let fields, let database, let zone else { failed = true; continue }
                    saves.append(RecordFieldsChange(database: database, zone: zone, type: type, name: name, fields: fields))
                }
            } else {
                reader.report("expected a list of records such as [\(ShapeExample.atomicRecord)], got \(recordsNode.value.shortDescription)", at: recordsNode.position, path: path.key("records"))
                failed = true
            }
        }
        if let deleteNode {
            if case .array(let elements) = deleteNode.value {
                for (index, element) in elements.enumerated() {
                    guard let name = reader.string(element, path.key("delete").index(index), nonEmpty: true, what: "a record name") else { failed = true; continue }
                    reader.checkSpelling(name, .record, at: element.position, path: path.key("delete").index(index))
                    // A record both saved and deleted by one call: which one should win? CloudKit
                    // refuses such an operation; here the delete silently removed the save.
                    if let saved = saves.firstIndex(where: { $0.name == name }) {
                        reader.report("record \(element.value.shortDescription) is both saved (records[\(saved)]) and deleted in one records.saveAtomic, which CloudKit refuses: save and delete it in separate steps", at: element.position, path: path.key("delete").index(index))
                        failed = true
                    } else if let first = deletes.firstIndex(of: name) {
                        reader.report("record \(element.value.shortDescription) is deleted twice in one records.saveAtomic (first at delete[\(first)])", at: element.position, path: path.key("delete").index(index))
                        failed = true
                    }
                    deletes.append(name)
                }
            } else {
                reader.report("expected a list of record names, got \(deleteNode.value.shortDescription)", at: deleteNode.position, path: path.key("delete"))
                failed = true
            }
        }
        guard !failed, let database, let zone else { return nil }
        guard !saves.isEmpty || !deletes.isEmpty else {
            reader.report("records.saveAtomic saves and deletes nothing: give records or delete", at: node.position, path: path)
            return nil
        }
        return .recordsSaveAtomic(database: database, zone: zone, saves: saves, deletes: deletes)
    }

    // MARK: - Lifecycles

    /// A crashed device takes no step until `device.restart`; restarting needs a crash first.
    private func checkLifecycles(_ steps: [Expanded]) {
        var crashedAt: [SimInstant?] = crashedBefore.count == deviceIDs.count ? crashedBefore : Array(repeating: nil, count: deviceIDs.count)
        for entry in steps {
            for device in entry.step.devices {
                let id = deviceIDs[device]
                let position = entry.deviceNode?.position
                let path = entry.path.key("device")
                var isCrash = false, isRestart = false
                if case .deviceCrash = entry.step.op { isCrash = true }
                if case .deviceRestart = entry.step.op { isRestart = true }
                if isCrash {
                    if let since = crashedAt[device] {
                        reader.report("device \"\(id)\" is already crashed (since \(since)); restart it first", at: position, path: path)
                    } else {
                        crashedAt[device] = entry.step.at
                    }
                } else if isRestart {
                    if crashedAt[device] == nil {
                        reader.report("device \"\(id)\" is not crashed at \(entry.step.at): device.restart needs a device.crash before it", at: position, path: path)
                    }
                    crashedAt[device] = nil
                } else if let since = crashedAt[device] {
                    reader.report("device \"\(id)\" is crashed at \(entry.step.at) (device.crash at \(since)): \(entry.step.op.name) needs a device.restart before it", at: position, path: path)
                }
            }
        }
    }
}
