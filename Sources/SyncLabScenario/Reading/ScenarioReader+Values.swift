import Foundation
import SyncLabJSON
import SyncLabProtocol

/// KVS values, document contents and record fields written in JSON (SPEC §4.1–4.3).
extension ScenarioReader {
    /// A property-list value: string, integer, double, bool, `{"$data": base64}`,
    /// `{"$date": ISO 8601}`, array, or object (a dictionary). `null` is not a value.
    func plistValue(_ node: JSONNode, _ path: JSONPath) -> PlistValue? {
        switch node.value {
        case .string(let text): return .string(text)
        case .integer(let value): return .integer(value)
        case .largeInteger:
            reportLargeInteger(node, path, what: "a KVS integer")
            return nil
        case .double(let value):
            guard value.isFinite else {
                report("a KVS value must be a finite number (a double holds at most about ±1.8e308), got \(node.value.shortDescription)", at: node.position, path: path)
                return nil
            }
            return .double(value)
        case .bool(let value): return .bool(value)
        case .null:
            report("null is not a KVS value (use the kvs.remove op to remove a key)", at: node.position, path: path)
            return nil
        case .array(let elements):
            var values: [PlistValue] = []
            var failed = false
            for (index, element) in elements.enumerated() {
                if let value = plistValue(element, path.index(index)) { values.append(value) } else { failed = true }
            }
            return failed ? nil : .array(values)
        case .object(let members):
            if let special = members.first(where: { $0.key == "$data" || $0.key == "$date" }) {
                guard members.count == 1 else {
                    report("'\(special.key)' must be the only key of its object", at: node.position, path: path)
                    return nil
                }
                return special.key == "$data" ? data(special.value, path.key("$data")).map { .data($0) }
                    : date(special.value, path.key("$date")).map { .date(epochMicroseconds: $0) }
            }
            var entries: [PlistEntry] = []
            var failed = false
            for member in members {
                if let value = plistValue(member.value, path.key(member.key)) {
                    entries.append(PlistEntry(key: member.key, value: value))
                } else {
                    failed = true
                }
            }
            return failed ? nil : PlistValue.makeDictionary(entries)
        }
    }

    /// A value to compare against, where `null` means "absent": the outer optional is nil on error.
    func expectedPlist(_ node: JSONNode, _ path: JSONPath) -> PlistValue?? {
        if case .null = node.value { return .some(nil) }
        guard let value = plistValue(node, path) else { return nil }
        return .some(value)
    }

    /// Base64 bytes.
    func data(_ node: JSONNode, _ path: JSONPath) -> [UInt8]? {
        guard let text = string(node, path, what: "base64 text") else { return nil }
        guard let decoded = Data(base64Encoded: text) else {
            report("expected base64 text, got \(node.value.shortDescription)", at: node.position, path: path)
            return nil
        }
        return [UInt8](decoded)
    }

    /// An ISO 8601 date, as microseconds since 1970.
    func date(_ node: JSONNode, _ path: JSONPath) -> Int64? {
        guard let text = string(node, path, what: "an ISO 8601 date") else { return nil }
        guard let micros = ISODate.parse(text) else {
            report("expected an ISO 8601 date like \"2026-01-31T12:00:00Z\", got \(node.value.shortDescription)", at: node.position, path: path)
            return nil
        }
        return micros
    }

    /// Document content: text, or `{"$size": "3MB"}` synthetic bytes.
    func documentContent(_ node: JSONNode, _ path: JSONPath) -> DocumentContent? {
        if case .string(let text) = node.value { return .text(text) }
        guard node.members != nil else {
            report("expected document content: text, or {\"$size\": \"3MB\"}, got \(node.value.shortDescription)", at: node.position, path: path)
            return nil
        }
        guard let members = members(node, path, allowed: ["$size"], what: "synthetic document content"),
              let sizeNode = required(members, "$size", in: node, path, what: "synthetic document content") else { return nil }
        return size(sizeNode, path.key("$size"), what: "a document size").map { .synthetic(sizeBytes: $0) }
    }

    /// Content to compare against, where `null` means "absent".
    func expectedContent(_ node: JSONNode, _ path: JSONPath) -> DocumentContent?? {
        if case .null = node.value { return .some(nil) }
        guard let value = documentContent(node, path) else { return nil }
        return .some(value)
    }

    /// A record's `fields` object: name → value, or `null` to remove the field (or, in
    /// expectations, to require its absence). In the order written.
    func fieldAssignments(_ node: JSONNode, _ path: JSONPath) -> [FieldAssignment]? {
        guard let members = node.members else {
            report("expected record fields (an object of field name → value), got \(node.value.shortDescription)", at: node.position, path: path)
            return nil
        }
        var result: [FieldAssignment] = []
        var failed = false
        for member in members {
            let fieldPath = path.key(member.key)
            if member.key.isEmpty {
                report("a field name can't be empty", at: member.keyPosition, path: fieldPath)
                failed = true
                continue
            }
            checkSpelling(member.key, .field, at: member.keyPosition, path: fieldPath)
            if case .null = member.value.value {
                result.append(FieldAssignment(name: member.key, value: nil))
            } else if let value = fieldValue(member.value, fieldPath, inList: false) {
                result.append(FieldAssignment(name: member.key, value: value))
            } else {
                failed = true
            }
        }
        return failed ? nil : result
    }

    /// One record field value (SPEC §4.3).
    func fieldValue(_ node: JSONNode, _ path: JSONPath, inList: Bool) -> FieldValue? {
        let expected = "a field value (string, integer, double, {\"$data\"}, {\"$date\"}, {\"lat\", \"lon\"}, {\"$ref\"}, {\"$asset\"} or a list)"
        switch node.value {
        case .string(let text): return .string(text)
        case .integer(let value): return .int(value)
        case .largeInteger:
            reportLargeInteger(node, path, what: "a record's integer field")
            return nil
        case .double(let value):
            guard value.isFinite else {
                report("expected a finite number, got \(node.value.shortDescription)", at: node.position, path: path)
                return nil
            }
            return .double(value)
        case .bool:
            report("records have no boolean fields (CloudKit stores them as integers): write 0 or 1", at: node.position, path: path)
            return nil
        case .null:
            report("expected \(expected), got null (null removes a field only as a field's whole value)", at: node.position, path: path)
            return nil
        case .array(let elements):
            guard !inList else {
                report("a list can't contain lists", at: node.position, path: path)
                return nil
            }
            var values: [FieldValue] = []
            var failed = false
            for (index, element) in elements.enumerated() {
                guard let value = fieldValue(element, path.index(index), inList: true) else { failed = true; continue }
                if let first = values.first, FieldKind(first) != FieldKind(value) {
                    report("a list holds values of one kind: element \(index) is \(FieldKind(value).rawValue), element 0 is \(FieldKind(first).rawValue)", at: element.position, path: path.index(index))
                    failed = true
                    continue
                }
                values.append(value)
            }
            return failed ? nil : .list(values)
        case .object(let members):
            let keys = members.map(\.key)
            if keys.contains("$data") {
                guard let members = self.members(node, path, allowed: ["$data"], what: "bytes") else { return nil }
                return data(members[0].value, path.key("$data")).map { .bytes($0) }
            }
            if keys.contains("$date") {
                guard let members = self.members(node, path, allowed: ["$date"], what: "a date") else { return nil }
                return date(members[0].value, path.key("$date")).map { .date(epochMicroseconds: $0) }
            }
            if keys.contains("$asset") {
                guard let members = self.members(node, path, allowed: ["$asset"], what: "an asset") else { return nil }
                return size(members[0].value, path.key("$asset"), what: "an asset size").map { .asset(sizeBytes: $0) }
            }
            if keys.contains("$ref") {
                guard let members = self.members(node, path, allowed: ["$ref", "action"], what: "a reference") else { return nil }
                let name = string(members.first { $0.key == "$ref" }!.value, path.key("$ref"), nonEmpty: true, what: "a record name")
                var action = ReferenceAction.none
                if let actionNode = members.first(where: { $0.key == "action" })?.value {
                    guard let chosen = choice(actionNode, path.key("action"), names: ["deleteSelf", "none"]).flatMap(ReferenceAction.init(rawValue:)) else { return nil }
                    action = chosen
                }
                return name.map { .reference(recordName: $0, action: action) }
            }
            if keys.contains("lat") || keys.contains("lon") {
                guard let members = self.members(node, path, allowed: ["lat", "lon"], what: "a location") else { return nil }
                let latitudeNode = required(members, "lat", in: node, path, what: "a location")
                let longitudeNode = required(members, "lon", in: node, path, what: "a location")
                guard let latitudeNode, let longitudeNode else { return nil }
                let latitude = number(latitudeNode, path.key("lat"), what: "a latitude")
                let longitude = number(longitudeNode, path.key("lon"), what: "a longitude")
                guard let latitude, let longitude else { return nil }
                guard (-90...90).contains(latitude) else {
                    report("a latitude is between -90 and 90, got \(latitudeNode.value.shortDescription)", at: latitudeNode.position, path: path.key("lat"))
                    return nil
                }
                guard (-180...180).contains(longitude) else {
                    report("a longitude is between -180 and 180, got \(longitudeNode.value.shortDescription)", at: longitudeNode.position, path: path.key("lon"))
                    return nil
                }
                return .location(latitude: latitude, longitude: longitude)
            }
            report("expected \(expected), got an object with keys \(keys.map { "'\($0)'" }.joined(separator: ", "))", at: node.position, path: path)
            return nil
        }
    }
}

/// The kind of a field value, for the one-kind rule of lists.
private enum FieldKind: String {
    case string = "a string", int = "an integer", double = "a double", bytes = "bytes", date = "a date"
    case location = "a location", reference = "a reference", asset = "an asset", list = "a list"

    init(_ value: FieldValue) {
        switch value {
        case .string: self = .string
        case .int: self = .int
        case .double: self = .double
        case .bytes: self = .bytes
        case .date: self = .date
        case .location: self = .location
        case .reference: self = .reference
        case .asset: self = .asset
        case .list: self = .list
        }
    }
}
