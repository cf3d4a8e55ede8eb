import SyncLabJSON

/// `${i}` and `${device}` in a step's arguments (SPEC §5): found and expanded in every string
/// value and every object key, at any depth.
enum StepTemplate {
    /// Whether `placeholder` occurs in any string or key of `members`.
    static func contains(_ placeholder: String, in members: [JSONMember]) -> Bool {
        members.contains { occurs(placeholder, in: $0.key) || contains(placeholder, in: $0.value) }
    }

    /// Whether `needle` occurs in `text`, byte by byte in UTF-8: Foundation's `contains` on
    /// Linux bridges every string to NSString, which was most of validating a file of a million
    /// steps. Placeholders are ASCII, so a byte match is a character match.
    /// - Complexity: O(`text`'s bytes × `needle`'s bytes), and `needle` is a short placeholder.
    static func occurs(_ needle: String, in text: String) -> Bool {
        var needle = needle, text = text
        return needle.withUTF8 { pattern in
            text.withUTF8 { bytes in
                guard let first = pattern.first, bytes.count >= pattern.count else { return pattern.isEmpty }
                var index = 0
                let last = bytes.count - pattern.count
                while index <= last {
                    if bytes[index] == first {
                        var offset = 1
                        while offset < pattern.count && bytes[index + offset] == pattern[offset] { offset += 1 }
                        if offset == pattern.count { return true }
                    }
                    index += 1
                }
                return false
            }
        }
    }

    private static func contains(_ placeholder: String, in node: JSONNode) -> Bool {
        switch node.value {
        case .string(let text): return occurs(placeholder, in: text)
        case .object(let members): return contains(placeholder, in: members)
        case .array(let elements): return elements.contains { contains(placeholder, in: $0) }
        case .integer, .largeInteger, .double, .bool, .null: return false
        }
    }

    /// The placeholders SPEC §5 defines.
    static let placeholders = ["i", "device"]

    /// Every `${NAME}` in the strings and keys of `members` whose NAME is not a placeholder:
    /// (the text, where it is, its path). A typo like `${j}` would otherwise stay in the value.
    /// - Parameter allowed: the placeholders this step can use (a cloud op has no `device`).
    static func unknownPlaceholders(in members: [JSONMember], _ path: JSONPath, allowed: [String] = placeholders) -> [(text: String, position: SourcePosition, path: JSONPath)] {
        var found: [(text: String, position: SourcePosition, path: JSONPath)] = []
        for member in members {
            for name in unknownNames(member.key, allowed) { found.append((name, member.keyPosition, path.key(member.key))) }
            found += unknownPlaceholders(in: member.value, path.key(member.key), allowed)
        }
        return found
    }

    private static func unknownPlaceholders(in node: JSONNode, _ path: JSONPath, _ allowed: [String]) -> [(text: String, position: SourcePosition, path: JSONPath)] {
        switch node.value {
        case .string(let text): return unknownNames(text, allowed).map { ($0, node.position, path) }
        case .object(let members): return unknownPlaceholders(in: members, path, allowed: allowed)
        case .array(let elements): return elements.enumerated().flatMap { unknownPlaceholders(in: $1, path.index($0), allowed) }
        case .integer, .largeInteger, .double, .bool, .null: return []
        }
    }

    /// The `${NAME}` texts in `text` whose NAME is not among `allowed`.
    private static func unknownNames(_ text: String, _ allowed: [String]) -> [String] {
        guard occurs("${", in: text) else { return [] }
        var names: [String] = []
        var rest = text[...]
        while let open = rest.range(of: "${") {
            guard let close = rest[open.upperBound...].firstIndex(of: "}") else { break }
            let name = String(rest[open.upperBound..<close])
            if !allowed.contains(name) { names.append("${\(name)}") }
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    /// `members` with `${i}` replaced by `index` and `${device}` by `device`. Positions are kept,
    /// so errors in an expansion point at the template.
    static func expand(_ members: [JSONMember], index: Int, device: String) -> [JSONMember] {
        members.map { JSONMember(key: substitute($0.key, index, device), keyPosition: $0.keyPosition, value: expand($0.value, index, device)) }
    }

    private static func expand(_ node: JSONNode, _ index: Int, _ device: String) -> JSONNode {
        switch node.value {
        case .string(let text): return JSONNode(value: .string(substitute(text, index, device)), position: node.position)
        case .object(let members): return JSONNode(value: .object(expand(members, index: index, device: device)), position: node.position)
        case .array(let elements): return JSONNode(value: .array(elements.map { expand($0, index, device) }), position: node.position)
        case .integer, .largeInteger, .double, .bool, .null: return node
        }
    }

    /// Keys an expansion made equal in one object (`{"${device}": 1, "A": 2}` on device A): the
    /// second of each, with its position and path. A duplicate key is an error (SPEC §5); after
    /// expansion the object used to keep the last value silently.
    /// - Parameters:
    ///   - template: the step's arguments as written; only objects with a placeholder in a key
    ///     are looked at (a duplicate written as such is the parser's error already).
    ///   - expanded: the same arguments expanded (`expand`), in the same shape.
    static func collidingKeys(_ template: [JSONMember], _ expanded: [JSONMember], _ path: JSONPath) -> [(key: String, position: SourcePosition, path: JSONPath)] {
        var result: [(key: String, position: SourcePosition, path: JSONPath)] = []
        if template.contains(where: { occurs("${", in: $0.key) }) {
            var seen: Set<String> = []
            for member in expanded where !seen.insert(member.key).inserted {
                result.append((member.key, member.keyPosition, path.key(member.key)))
            }
        }
        for (written, made) in zip(template, expanded) {
            result += collidingKeys(written.value, made.value, path.key(made.key))
        }
        return result
    }

    private static func collidingKeys(_ template: JSONNode, _ expanded: JSONNode, _ path: JSONPath) -> [(key: String, position: SourcePosition, path: JSONPath)] {
        switch (template.value, expanded.value) {
        case (.object(let written), .object(let made)): return collidingKeys(written, made, path)
        case (.array(let written), .array(let made)):
            return zip(written, made).enumerated().flatMap { collidingKeys($1.0, $1.1, path.index($0)) }
        default: return []
        }
    }

    private static func substitute(_ text: String, _ index: Int, _ device: String) -> String {
        guard occurs("${", in: text) else { return text }
        return text.replacingOccurrences(of: "${i}", with: String(index)).replacingOccurrences(of: "${device}", with: device)
    }
}
