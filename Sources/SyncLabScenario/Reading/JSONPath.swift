/// A JSON path for messages: `steps[3].device`, `expect.final.records["Notes/n1"]`, `(root)`.
struct JSONPath: Sendable, CustomStringConvertible {
    /// Empty for the root.
    private(set) var text: String

    static let root = JSONPath(text: "")

    /// The member `key`: `.key`, or `["key"]` when the key is not a plain name.
    func key(_ key: String) -> JSONPath {
        let plain = !key.isEmpty && key.unicodeScalars.allSatisfy { scalar in
            (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || (scalar >= "0" && scalar <= "9") || scalar == "_" || scalar == "$"
        }
        if plain { return JSONPath(text: text.isEmpty ? key : text + "." + key) }
        let escaped = key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return JSONPath(text: text + "[\"" + escaped + "\"]")
    }

    /// The element at `index`: `[3]`.
    func index(_ index: Int) -> JSONPath { JSONPath(text: text + "[\(index)]") }

    var description: String { text.isEmpty ? "(root)" : text }
}
