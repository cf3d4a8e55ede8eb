import SyncLabJSON

/// Reading a saved run (`trace.jsonl`, `result.json`) through JSONText's one reader.
///
/// Accessors answer nil for a missing member or a value of another kind, so a report of an older
/// or damaged run shows `?` instead of failing. `compactText` re-renders a value through the
/// project's one writer (`JSON`), which is what wrote the saved files: the same bytes come back.
extension JSONNode {
    var string: String? { if case .string(let text) = value { return text }; return nil }
    var bool: Bool? { if case .bool(let flag) = value { return flag }; return nil }
    var int64: Int64? { if case .integer(let number) = value { return number }; return nil }
    var elements: [JSONNode]? { if case .array(let elements) = value { return elements }; return nil }

    /// Compact JSON text, as the writer renders it: `{"a":1,"b":[true,null]}`, `0.5`, `"x"`.
    var compactText: String { json.rendered() }

    /// The value as an output tree (member order and number kinds kept).
    package var json: JSON {
        switch value {
        case .object(let members): return .object(members.map { JSONField($0.key, $0.value.json) })
        case .array(let elements): return .array(elements.map(\.json))
        case .string(let text): return .string(text)
        case .integer(let number): return .int(number)
        // The writer writes nothing larger than a UInt64 (a seed); a hand-edited file's larger
        // integer is shown as the nearest double.
        case .largeInteger(let digits): return UInt64(digits).map(JSON.uint) ?? .double(Double(digits) ?? .nan)
        case .double(let number): return .double(number)
        case .bool(let flag): return .bool(flag)
        case .null: return .null
        }
    }
}
