import SyncLabJSON
import SyncLabProtocol
import SyncLabHistory

/// Reads `expect` (SPEC §5) into `Expectations`.
struct ExpectationResolver {
    static let keys = ["converged", "lostUpdates", "conflicts", "unresolvedConflicts", "quotaViolations",
                       "anomalies", "noAnomalies", "final", "notifications", "settled"]
    /// The checker's anomaly kinds (SPEC §6).
    static let anomalyKinds = AnomalyKind.allCases.map(\.rawValue)

    let reader: ScenarioReader
    let deviceIDs: [String]

    func resolve(_ node: JSONNode, _ path: JSONPath) -> Expectations {
        var result = Expectations()
        // `"expect": {"kvs": {…}}`: the final items one level too high.
        let hint: (String) -> String? = { key in
            ScenarioKeys.itemSections.contains(key) ? "; the cloud's final items go under 'final', like \"final\": {\"\(key)\": …}" : nil
        }
        guard let members = reader.members(node, path, allowed: ExpectationResolver.keys, what: "expectations", example: ShapeExample.expect, hint: hint) else { return result }
        for member in members {
            let valuePath = path.key(member.key)
            let value = member.value
            switch member.key {
            case "converged": result.converged = reader.bool(value, valuePath)
            case "settled": result.settled = reader.bool(value, valuePath)
            case "lostUpdates": result.lostUpdates = count(value, valuePath)
            case "conflicts": result.conflicts = count(value, valuePath)
            case "unresolvedConflicts": result.unresolvedConflicts = count(value, valuePath)
            case "quotaViolations": result.quotaViolations = count(value, valuePath)
            case "anomalies": result.anomalies = patterns(value, valuePath, allowPlainKinds: false)
            case "noAnomalies": result.noAnomalies = patterns(value, valuePath, allowPlainKinds: true)
            case "final":
                if let items = reader.itemValues(value, valuePath, what: "final state") {
                    var final = FinalExpectation()
                    final.kvs = items.kvs; final.documents = items.documents; final.records = items.records
                    result.final = final
                }
            case "notifications": result.notifications = notifications(value, valuePath)
            default: break
            }
            notePositions(member, in: &result)
        }
        return result
    }

    /// Records where `member`'s expectations are written, under the names their results carry
    /// (`ExpectationEvaluator`): the key for a bool or a count, each element for a list, each
    /// item of `final`.
    private func notePositions(_ member: JSONMember, in result: inout Expectations) {
        switch member.key {
        case "anomalies", "noAnomalies", "notifications":
            guard case .array(let elements) = member.value.value else { return }
            for (index, element) in elements.enumerated() { result.positions["\(member.key)[\(index)]"] = element.position }
        case "final":
            for section in member.value.members ?? [] {
                for entry in section.value.members ?? [] { result.positions["final.\(section.key).\(entry.key)"] = entry.keyPosition }
            }
        default:
            result.positions[member.key] = member.keyPosition
        }
    }

    /// `3`, `{"min": 1}`, `{"max": 2}` or `{"min": 1, "max": 2}`.
    private func count(_ node: JSONNode, _ path: JSONPath) -> CountExpectation? {
        switch node.value {
        case .integer, .largeInteger: return reader.int(node, path, minimum: 0, what: "a count").map { .exactly($0) }
        case .object, .array, .string, .double, .bool, .null: break
        }
        guard node.members != nil else {
            reader.report("expected a count: an integer, or {\"min\": n} / {\"max\": n}, got \(node.value.shortDescription)", at: node.position, path: path)
            return nil
        }
        guard let members = reader.members(node, path, allowed: ["min", "max"], what: "a count range") else { return nil }
        guard !members.isEmpty else {
            reader.report("a count range needs \"min\", \"max\" or both", at: node.position, path: path)
            return nil
        }
        let minimum = node["min"].flatMap { reader.int($0, path.key("min"), minimum: 0, what: "a count") }
        let maximum = node["max"].flatMap { reader.int($0, path.key("max"), minimum: 0, what: "a count") }
        if node["min"] != nil && minimum == nil { return nil }
        if node["max"] != nil && maximum == nil { return nil }
        if let minimum, let maximum, minimum > maximum {
            reader.report("\"min\" (\(minimum)) is greater than \"max\" (\(maximum))", at: node.position, path: path)
            return nil
        }
        return CountExpectation(min: minimum, max: maximum)
    }

    private func patterns(_ node: JSONNode, _ path: JSONPath, allowPlainKinds: Bool) -> [AnomalyPattern] {
        guard case .array(let elements) = node.value else {
            // A lone kind or pattern: show it inside the list it needs.
            var write = ""
            if case .string(let kind) = node.value { write = allowPlainKinds ? " (write [\(node.value.shortDescription)])" : " (write [{\"kind\": \(JSONValue.string(kind).shortDescription)}])" }
            if case .object = node.value { write = " (write [ … ] around the pattern)" }
            reader.report("expected a list of anomaly patterns ({\"kind\": …}\(allowPlainKinds ? " or kind names" : "")), got \(node.value.shortDescription)\(write)", at: node.position, path: path)
            return []
        }
        var result: [AnomalyPattern] = []
        for (index, element) in elements.enumerated() {
            let elementPath = path.index(index)
            if allowPlainKinds, case .string = element.value {
                if let kind = reader.choice(element, elementPath, names: ExpectationResolver.anomalyKinds).flatMap(AnomalyKind.init(rawValue:)) { result.append(AnomalyPattern(kind: kind)) }
                continue
            }
            // noAnomalies takes both forms, so a value of neither kind is told both.
            if allowPlainKinds, element.members == nil {
                reader.report("expected an anomaly kind such as \"lostUpdate\" or a pattern such as \(ShapeExample.anomalyPattern()), got \(element.value.shortDescription)", at: element.position, path: elementPath)
                continue
            }
            if case .string(let text) = element.value, ExpectationResolver.anomalyKinds.contains(text) {
                reader.report("expected an anomaly pattern object such as \(ShapeExample.anomalyPattern(text)), got \(element.value.shortDescription) (only noAnomalies takes bare kind names)", at: element.position, path: elementPath)
                continue
            }
            guard let members = reader.members(element, elementPath, allowed: ScenarioKeys.anomalyPattern, what: "an anomaly pattern", example: ShapeExample.anomalyPattern(),
                                               hint: { $0 == "type" ? "; did you mean 'kind'?" : nil }) else { continue }
            guard let kindNode = reader.required(members, "kind", in: element, elementPath, what: "an anomaly pattern"),
                  let kind = reader.choice(kindNode, elementPath.key("kind"), names: ExpectationResolver.anomalyKinds).flatMap(AnomalyKind.init(rawValue:)) else { continue }
            var pattern = AnomalyPattern(kind: kind)
            var failed = false
            if let storeNode = element["store"] {
                if let store = reader.choice(storeNode, elementPath.key("store"), Store.self) { pattern.store = store.rawValue } else { failed = true }
            }
            if let itemNode = element["item"] {
                if let item = reader.string(itemNode, elementPath.key("item"), nonEmpty: true, what: "an item name") { pattern.item = item } else { failed = true }
            }
            if let deviceNode = element["device"] {
                if let device = deviceID(deviceNode, elementPath.key("device")) { pattern.device = device } else { failed = true }
            }
            if !failed { result.append(pattern) }
        }
        return result
    }

    private func notifications(_ node: JSONNode, _ path: JSONPath) -> [NotificationExpectation] {
        guard case .array(let elements) = node.value else {
            let write = node.members != nil ? " (write [ … ] around it)" : ""
            reader.report("expected a list of {\"device\", \"reason\", \"min\"?, \"max\"?}, got \(node.value.shortDescription)\(write)", at: node.position, path: path)
            return []
        }
        var result: [NotificationExpectation] = []
        for (index, element) in elements.enumerated() {
            let elementPath = path.index(index)
            guard let members = reader.members(element, elementPath, allowed: ScenarioKeys.notification, what: "a notification expectation", example: ShapeExample.notification) else { continue }
            let device = reader.required(members, "device", in: element, elementPath, what: "a notification expectation").flatMap { deviceID($0, elementPath.key("device")) }
            let reason = reader.required(members, "reason", in: element, elementPath, what: "a notification expectation")
                .flatMap { reader.string($0, elementPath.key("reason"), nonEmpty: true, what: "a notification reason like \"serverChange\"") }
            let minimum = element["min"].flatMap { reader.int($0, elementPath.key("min"), minimum: 0, what: "a count") }
            let maximum = element["max"].flatMap { reader.int($0, elementPath.key("max"), minimum: 0, what: "a count") }
            // Each part is checked on its own, so a bad device does not hide a bad reason or an
            // empty range (SPEC §5: all errors in a file are reported together).
            var failed = device == nil || reason == nil
            if let reason, !AppNotification.reasons.contains(reason) {
                let node = element["reason"]
                reader.report("unknown notification reason \"\(reason)\"\(Suggestion.hint(for: reason, in: AppNotification.reasons)) (reasons: \(AppNotification.reasons.joined(separator: ", ")))",
                              at: node?.position ?? element.position, path: elementPath.key("reason"))
                failed = true
            }
            if (element["min"] != nil && minimum == nil) || (element["max"] != nil && maximum == nil) { failed = true }
            if let minimum, let maximum, minimum > maximum {
                reader.report("\"min\" (\(minimum)) is greater than \"max\" (\(maximum))", at: element.position, path: elementPath)
                failed = true
            }
            guard !failed, let device, let reason else { continue }
            result.append(NotificationExpectation(device: device, reason: reason, min: minimum, max: maximum))
        }
        return result
    }

    private func deviceID(_ node: JSONNode, _ path: JSONPath) -> String? {
        guard let id = reader.string(node, path, nonEmpty: true, what: "a device id") else { return nil }
        guard deviceIDs.contains(id) else {
            reader.report("unknown device \"\(id)\"\(Suggestion.hint(for: id, in: deviceIDs)) (devices: \(Suggestion.list(deviceIDs)))", at: node.position, path: path)
            return nil
        }
        return id
    }
}
