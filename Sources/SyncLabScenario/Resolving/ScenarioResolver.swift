import SyncLabJSON
import SyncLabKernel
import SyncLabProtocol

/// Validates a parsed scenario file and resolves it into one `ScenarioRun` per variant.
///
/// Variants: `engine`, `network` and `limits` are read as overrides and applied on top of the
/// base's (the effect of deep-merging the JSON objects, member by member; a latency distribution
/// is replaced whole, never merged field by field). A variant's `expect` replaces the base's
/// whole. Each section is validated once, where it is written, so every error has the path the
/// user wrote (`variants[0].engine.documents.conflict`) and is reported once.
struct ScenarioResolver {
    /// `$schema` names the JSON Schema an editor checks the file against (docs/synclab.schema.json):
    /// accepted and ignored.
    static let topLevelKeys = ["format", "name", "description", "seed", "duration", "accounts", "environment",
                               "schema", "limits", "network", "engine", "apps", "devices", "steps", "end", "expect", "variants", "$schema"]
    static let format = "synclab/1"

    /// A device as declared, before the network defaults of a run are applied.
    private struct DeclaredDevice {
        var id: String
        var account: Int
        var clockOffset: SimDuration
        var driftPpm: Double
        var network: LinkOverride
        var online: Bool
        /// The device's own `apps`, applied over the run's.
        var apps: AppSelection
    }

    /// A variant's own sections.
    private struct DeclaredVariant {
        var name: String
        var description: String?
        var engine: EngineSettings
        var limits: Limits
        var network: LinkSettings
        var apps: AppSelection
        var expect: Expectations
    }

    let reader: ScenarioReader

    func resolve(_ root: JSONNode) -> ScenarioFile? {
        let path = JSONPath.root
        guard let members = reader.members(root, path, allowed: ScenarioResolver.topLevelKeys, what: "the scenario",
                                           example: #"{"format": "synclab/1", "name": "my scenario", "devices": [{"id": "A"}]}"#,
                                           hint: { SectionHint.hint(for: $0) }) else { return nil }
        func member(_ key: String) -> JSONNode? { members.first { $0.key == key }?.value }

        if member("format") == nil {
            reader.report("missing required key 'format' in the scenario: add \"format\": \"\(ScenarioResolver.format)\"", at: root.position, path: path.key("format"))
        }
        if let formatNode = member("format"),
           let format = reader.string(formatNode, path.key("format"), what: "\"\(ScenarioResolver.format)\"") ,
           format != ScenarioResolver.format {
            reader.report("unsupported format \"\(format)\": expected \"\(ScenarioResolver.format)\"", at: formatNode.position, path: path.key("format"))
        }
        let name = reader.required(members, "name", in: root, path, what: "the scenario")
            .flatMap { reader.string($0, path.key("name"), nonEmpty: true, what: "a scenario name") } ?? ""
        let description = member("description").flatMap { reader.string($0, path.key("description"), what: "a description") } ?? ""
        let seed = member("seed").flatMap { reader.seed($0, path.key("seed")) } ?? 1
        var duration: SimDuration? = .seconds(86_400)
        if let durationNode = member("duration") {
            duration = reader.duration(durationNode, path.key("duration"), .nonNegative, what: "a scenario duration")
        }
        let accounts = member("accounts").map { self.accounts($0, path.key("accounts")) } ?? ["main"]
        let environment = member("environment").flatMap { reader.choice($0, path.key("environment"), SchemaEnvironment.self) } ?? .development
        let schema = member("schema").map { self.schema($0, path.key("schema")) } ?? []

        var limits = Limits()
        if let node = member("limits") { reader.applyLimits(node, path.key("limits"), to: &limits) }
        var engine = EngineSettings()
        if let node = member("engine") { reader.applyEngine(node, path.key("engine"), to: &engine) }
        var network = LinkSettings()
        if let node = member("network") { network = reader.linkOverride(node, path.key("network")).applied(to: network) }
        let apps = member("apps").map { reader.apps($0, path.key("apps")) } ?? AppSelection()

        var devices: [DeclaredDevice] = []
        if let node = reader.required(members, "devices", in: root, path, what: "the scenario (at least one device: [{\"id\": \"A\"}])") {
            devices = self.devices(node, path.key("devices"), accounts: accounts)
        }
        let deviceIDs = devices.map(\.id)

        var steps: [Step] = []
        if let node = member("steps") {
            steps = StepResolver(reader: reader, deviceIDs: deviceIDs, accounts: accounts, duration: duration).resolve(node, path.key("steps"))
        }
        let end = member("end").map { self.end($0, path.key("end")) } ?? EndSpec()
        let expectations = ExpectationResolver(reader: reader, deviceIDs: deviceIDs)
        let expect = member("expect").map { expectations.resolve($0, path.key("expect")) } ?? Expectations()

        var variants: [DeclaredVariant] = []
        if let node = member("variants") {
            variants = self.variants(node, path.key("variants"), engine: engine, limits: limits, network: network, apps: apps, expect: expect, expectations: expectations)
        }

        guard !reader.hasErrors, let duration else { return nil }
        func run(variant: String, description runDescription: String, engine: EngineSettings, limits: Limits, network: LinkSettings,
                 apps: AppSelection, expect: Expectations) -> ScenarioRun {
            let resolvedDevices = devices.map {
                DeviceSpec(id: $0.id, account: $0.account, clockOffset: $0.clockOffset, driftPpm: $0.driftPpm, link: $0.network.applied(to: network),
                           online: $0.online, apps: apps.merged(with: $0.apps))
            }
            return ScenarioRun(scenarioName: name, description: runDescription, variant: variant, seed: seed, duration: duration,
                               accounts: accounts, environment: environment, limits: limits, engine: engine, network: network,
                               devices: resolvedDevices, steps: steps, end: end, expect: expect, schema: schema)
        }
        var runs = [run(variant: "base", description: description, engine: engine, limits: limits, network: network, apps: apps, expect: expect)]
        for variant in variants {
            runs.append(run(variant: variant.name, description: variant.description ?? description, engine: variant.engine,
                            limits: variant.limits, network: variant.network, apps: variant.apps, expect: variant.expect))
        }
        return ScenarioFile(path: reader.file, name: name, description: description, runs: runs)
    }

    // MARK: - Sections

    /// `schema`: `{"TYPE": {"FIELD": "KIND", …}, …}`, the record types deployed before the run.
    private func schema(_ node: JSONNode, _ path: JSONPath) -> [RecordTypeSchema] {
        guard case .object(let types) = node.value else {
            reader.report("expected an object of record types like {\"Note\": {\"title\": \"string\"}}, got \(node.value.shortDescription)", at: node.position, path: path)
            return []
        }
        let kinds = RecordTypeSchema.scalarKinds.joined(separator: ", ")
        var declared: [RecordTypeSchema] = []
        for type in types {
            let typePath = path.key(type.key)
            if type.key.isEmpty { reader.report("expected a record type name, got an empty key", at: type.keyPosition, path: typePath) }
            guard case .object(let fields) = type.value.value else {
                reader.report("expected an object of fields like {\"title\": \"string\"}, got \(type.value.value.shortDescription)", at: type.value.position, path: typePath)
                continue
            }
            var kindsByField: [String: String] = [:]
            for field in fields {
                if field.key.isEmpty { reader.report("expected a field name, got an empty key", at: field.keyPosition, path: typePath.key(field.key)) }
                guard let kind = reader.string(field.value, typePath.key(field.key), what: "a field kind") else { continue }
                guard RecordTypeSchema.isKind(kind) else {
                    reader.report("unknown field kind \"\(kind)\": expected one of \(kinds), or list<KIND> of one of them", at: field.value.position, path: typePath.key(field.key))
                    continue
                }
                kindsByField[field.key] = kind
            }
            declared.append(RecordTypeSchema(type: type.key, fields: kindsByField))
        }
        return declared
    }

    private func accounts(_ node: JSONNode, _ path: JSONPath) -> [String] {
        guard case .array(let elements) = node.value else {
            // `"accounts": "alice"` or `{"alice": …, "bob": …}`: the names are kept, so the devices
            // and steps that name them are not each reported as naming an unknown account too.
            var meant: [String] = []
            if case .string(let name) = node.value { meant = [name] } else if case .object(let members) = node.value { meant = members.map(\.key) }
            meant = meant.filter { !$0.isEmpty && $0 != "public" }
            let hint = meant.isEmpty ? "" : " (write [\(meant.map { JSONValue.string($0).shortDescription }.joined(separator: ", "))])"
            reader.report("expected a list of account names like [\"alice\", \"bob\"], got \(node.value.shortDescription)\(hint)", at: node.position, path: path)
            var unique: [String] = []
            for name in meant where !unique.contains(name) { unique.append(name) }
            return unique.isEmpty ? ["main"] : unique
        }
        guard !elements.isEmpty else {
            reader.report("expected at least one account name", at: node.position, path: path)
            return ["main"]
        }
        var names: [String] = []
        var declared: Set<String> = []
        for (index, element) in elements.enumerated() {
            guard let name = reader.string(element, path.index(index), nonEmpty: true, what: "an account name") else { continue }
            reader.checkIdentifier(name, element, path.index(index), what: "an account name")
            // Results, traces and anomalies name the public database's account `public` (SPEC §7),
            // so an account of that name could not be told from it (two `public` keys in `final`).
            if name == "public" {
                reader.report("\"public\" names the public database in results (SPEC §7: the public database under the account \"public\"): call the account something else", at: element.position, path: path.index(index))
                continue
            }
            guard declared.insert(name).inserted else {
                reader.report("account \"\(name)\" is declared twice", at: element.position, path: path.index(index))
                continue
            }
            names.append(name)
        }
        return names.isEmpty ? ["main"] : names
    }

    /// What a device key that belongs elsewhere is for: the key a device takes for it, not a
    /// spelling neighbour (`engine` was answered "did you mean 'online'?").
    static func deviceKeyHint(_ key: String) -> String? {
        switch key {
        case "name": return "; a device's name is its 'id', like {\"id\": \"iPhone\"}"
        case "engine", "policy", "conflict":
            return "; a device chooses its own policies under 'apps', like \"apps\": {\"documents\": \"merge\", \"records\": \"serverWins\"} (engine settings are the scenario's or a variant's)"
        case "limits", "storage": return "; limits are the account's and the cloud's: set them in the scenario's (or a variant's) 'limits'"
        case _ where ScenarioReader.linkKeys.contains(key): return "; a device's link goes under 'network', like \"network\": {\"\(key)\": …}"
        case _ where ScenarioKeys.clock.contains(key): return "; a device's clock goes under 'clock', like \"clock\": {\"\(key)\": …}"
        default: return nil
        }
    }

    private func devices(_ node: JSONNode, _ path: JSONPath, accounts: [String]) -> [DeclaredDevice] {
        guard case .array(let elements) = node.value else {
            // `"devices": {"id": "A"}` or `"devices": "A"`: one device without the list around it.
            // Its id is kept, so the steps that name it are not each reported as naming an
            // unknown device of an empty list ("unknown device "A" (devices: )").
            var id: String?
            if case .string(let text) = node.value { id = text } else if case .string(let text)? = node["id"]?.value { id = text }
            let hint = id.map { " (write [{\"id\": \(JSONValue.string($0).shortDescription)}], the list around the device)" } ?? ""
            reader.report("expected a list of devices like [{\"id\": \"A\"}], got \(node.value.shortDescription)\(hint)", at: node.position, path: path)
            guard let id, !id.isEmpty else { return [] }
            return [DeclaredDevice(id: id, account: 0, clockOffset: .zero, driftPpm: 0, network: LinkOverride(), online: true, apps: AppSelection())]
        }
        if elements.isEmpty {
            reader.report("a scenario needs at least one device", at: node.position, path: path)
        }
        var result: [DeclaredDevice] = []
        var firstByID: [String: Int] = [:]
        for (index, element) in elements.enumerated() {
            let devicePath = path.index(index)
            if case .string(let id) = element.value {
                // `"devices": ["iPhone", "iPad"]`: show the object to write, and keep the id so the
                // steps that name it are not reported as naming an unknown device too.
                reader.report("expected a device object such as \(ShapeExample.device), got \(element.value.shortDescription) (write {\"id\": \(element.value.shortDescription)})", at: element.position, path: devicePath)
                if !id.isEmpty && !result.contains(where: { $0.id == id }) {
                    result.append(DeclaredDevice(id: id, account: 0, clockOffset: .zero, driftPpm: 0, network: LinkOverride(), online: true, apps: AppSelection()))
                }
                continue
            }
            guard let members = reader.members(element, devicePath, allowed: ScenarioKeys.device, what: "a device", example: ShapeExample.device,
                                               hint: ScenarioResolver.deviceKeyHint) else { continue }
            guard let idNode = reader.required(members, "id", in: element, devicePath, what: "a device"),
                  let id = reader.string(idNode, devicePath.key("id"), nonEmpty: true, what: "a device id") else {
                // `{"name": "B"}` (reported above as 'id' written 'name'): B stays known, so the
                // steps that name it are not reported as naming an unknown device too.
                if element["id"] == nil, case .string(let name)? = element["name"]?.value, !name.isEmpty, !result.contains(where: { $0.id == name }) {
                    result.append(DeclaredDevice(id: name, account: 0, clockOffset: .zero, driftPpm: 0, network: LinkOverride(), online: true, apps: AppSelection()))
                }
                continue
            }
            if id == "*" || id.contains("${") {
                reader.report("\"\(id)\" can't be a device id (it has a meaning in steps)", at: idNode.position, path: devicePath.key("id"))
            }
            // The trace's lines (`"device": "cloud"`) and the timeline's lanes name the cloud so:
            // a device of that name could not be told from it (as an account `public`).
            if id == "cloud" {
                reader.report("\"cloud\" names the cloud in the trace and the timeline (its lane and its own events): call the device something else", at: idNode.position, path: devicePath.key("id"))
            }
            reader.checkIdentifier(id, idNode, devicePath.key("id"), what: "a device id")
            if let first = firstByID[id] {
                reader.report("duplicate device id \"\(id)\" (first declared at devices[\(first)])", at: idNode.position, path: devicePath.key("id"))
                continue
            }
            firstByID[id] = index
            var device = DeclaredDevice(id: id, account: 0, clockOffset: .zero, driftPpm: 0, network: LinkOverride(), online: true, apps: AppSelection())
            if let accountNode = element["account"], let account = reader.string(accountNode, devicePath.key("account"), nonEmpty: true, what: "an account name") {
                if let accountIndex = accounts.firstIndex(of: account) {
                    device.account = accountIndex
                } else {
                    reader.report("unknown account \"\(account)\"\(Suggestion.hint(for: account, in: accounts)) (accounts: \(accounts.joined(separator: ", ")); declare more under \"accounts\")", at: accountNode.position, path: devicePath.key("account"))
                }
            }
            if let clockNode = element["clock"] {
                let clockPath = devicePath.key("clock")
                // `"clock": "-2s"`: the example puts the value where it belongs.
                var example = ShapeExample.clock
                if case .string = clockNode.value { example = "{\"offset\": \(clockNode.value.shortDescription)}" }
                if reader.members(clockNode, clockPath, allowed: ScenarioKeys.clock, what: "a clock", example: example) != nil {
                    if let offsetNode = clockNode["offset"], let offset = reader.duration(offsetNode, clockPath.key("offset"), .signed, what: "a clock offset") {
                        device.clockOffset = offset
                    }
                    if let driftNode = clockNode["driftPpm"], let drift = reader.number(driftNode, clockPath.key("driftPpm"), what: "a drift in parts per million") {
                        if drift > 1_000_000 {
                            reader.report("a drift of \(driftNode.value.shortDescription) ppm is too large: at most 1000000 ppm (a clock running twice as fast)", at: driftNode.position, path: clockPath.key("driftPpm"))
                        } else if drift <= -1_000_000 {
                            reader.report("a drift of \(driftNode.value.shortDescription) ppm would stop or reverse the clock", at: driftNode.position, path: clockPath.key("driftPpm"))
                        } else {
                            device.driftPpm = drift
                        }
                    }
                }
            }
            if let networkNode = element["network"] {
                device.network = reader.linkOverride(networkNode, devicePath.key("network"), what: "a device's network overrides")
            }
            if let onlineNode = element["online"], let online = reader.bool(onlineNode, devicePath.key("online")) {
                device.online = online
            }
            if let appsNode = element["apps"] { device.apps = reader.apps(appsNode, devicePath.key("apps")) }
            result.append(device)
        }
        return result
    }

    private func end(_ node: JSONNode, _ path: JSONPath) -> EndSpec {
        var end = EndSpec()
        guard let members = reader.members(node, path, allowed: ScenarioKeys.end, what: "end settings", example: ShapeExample.end) else { return end }
        for member in members {
            let valuePath = path.key(member.key)
            switch member.key {
            case "heal": if let heal = reader.bool(member.value, valuePath) { end.heal = heal }
            case "settle": if let settle = reader.duration(member.value, valuePath, .nonNegative, what: "a settle time") { end.settle = settle }
            case "maxEvents": if let cap = reader.int(member.value, valuePath, minimum: 1, what: "an event cap") { end.maxEvents = cap }
            case "at": if let at = reader.duration(member.value, valuePath, .nonNegative, what: "an end time") { end.at = .start + at }
            default: break
            }
        }
        return end
    }

    private func variants(_ node: JSONNode, _ path: JSONPath, engine: EngineSettings, limits: Limits, network: LinkSettings,
                          apps: AppSelection, expect: Expectations, expectations: ExpectationResolver) -> [DeclaredVariant] {
        guard case .array(let elements) = node.value else {
            reader.report("expected a list of variants like [{\"name\": \"merge\", \"engine\": {…}}], got \(node.value.shortDescription)", at: node.position, path: path)
            return []
        }
        var result: [DeclaredVariant] = []
        var names: [String] = []
        for (index, element) in elements.enumerated() {
            let variantPath = path.index(index)
            guard let members = reader.members(element, variantPath, allowed: ScenarioKeys.variant, what: "a variant", example: ShapeExample.variant,
                                               hint: SectionHint.variantHint) else { continue }
            var name: String?
            if let nameNode = reader.required(members, "name", in: element, variantPath, what: "a variant"),
               let text = reader.string(nameNode, variantPath.key("name"), nonEmpty: true, what: "a variant name") {
                reader.checkIdentifier(text, nameNode, variantPath.key("name"), what: "a variant name")
                if text == "base" {
                    reader.report("\"base\" is the scenario as written: name the variant something else", at: nameNode.position, path: variantPath.key("name"))
                } else if names.contains(text) {
                    reader.report("duplicate variant name \"\(text)\"", at: nameNode.position, path: variantPath.key("name"))
                } else {
                    // Any other name is fine (SPEC §5 asks only unique and not `base`): its report
                    // folder is made safe by `VariantPaths` (`a / b` → `a___b`, `..x` → `_..x`).
                    name = text
                }
                names.append(text)
            }
            var variant = DeclaredVariant(name: name ?? "", description: nil, engine: engine, limits: limits, network: network, apps: apps, expect: expect)
            if let descriptionNode = element["description"] {
                variant.description = reader.string(descriptionNode, variantPath.key("description"), what: "a description")
            }
            if let engineNode = element["engine"] { reader.applyEngine(engineNode, variantPath.key("engine"), to: &variant.engine) }
            if let appsNode = element["apps"] { variant.apps = apps.merged(with: reader.apps(appsNode, variantPath.key("apps"))) }
            if let limitsNode = element["limits"] { reader.applyLimits(limitsNode, variantPath.key("limits"), to: &variant.limits) }
            if let networkNode = element["network"] { variant.network = reader.linkOverride(networkNode, variantPath.key("network")).applied(to: network) }
            if let expectNode = element["expect"] { variant.expect = expectations.resolve(expectNode, variantPath.key("expect")) }
            if name != nil { result.append(variant) }
        }
        return result
    }
}
