import SyncLabJSON

/// Small edits of a scenario tree, for the generator and the shrinker.
extension JSON {
    /// A parsed file's tree as an output tree (key order kept; a large integer keeps its digits).
    static func tree(_ node: JSONNode) -> JSON {
        switch node.value {
        case .object(let members): return .object(members.map { JSONField($0.key, tree($0.value)) })
        case .array(let elements): return .array(elements.map(tree))
        case .string(let text): return .string(text)
        case .integer(let value): return .int(value)
        case .largeInteger(let digits): return UInt64(digits).map(JSON.uint) ?? .string(digits)
        case .double(let value): return .double(value)
        case .bool(let value): return .bool(value)
        case .null: return .null
        }
    }

    package subscript(key: String) -> JSON? {
        guard case .object(let fields) = self else { return nil }
        return fields.first { $0.key == key }?.value
    }

    package var elements: [JSON]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    var fields: [JSONField]? {
        if case .object(let fields) = self { return fields }
        return nil
    }

    var text: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// This object with `key` set to `value` (in place if present, else appended).
    func setting(_ key: String, _ value: JSON) -> JSON {
        guard case .object(var fields) = self else { return self }
        if let index = fields.firstIndex(where: { $0.key == key }) { fields[index].value = value } else { fields.append(JSONField(key, value)) }
        return .object(fields)
    }

    /// This object without `key`.
    func removing(_ key: String) -> JSON {
        guard case .object(let fields) = self else { return self }
        return .object(fields.filter { $0.key != key })
    }

    /// `overlay`'s members deep-merged over this object's (a variant's overrides, SPEC §5).
    func merging(_ overlay: JSON) -> JSON {
        guard case .object = self, let overlayFields = overlay.fields else { return overlay }
        var result = self
        for field in overlayFields {
            result = result.setting(field.key, self[field.key].map { $0.merging(field.value) } ?? field.value)
        }
        return result
    }
}
