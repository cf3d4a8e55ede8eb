import Foundation

/// `docs/SCENARIOS.md` read the way the reference tests need it: sections by heading, the tables
/// in each, and the backticked names in their cells.
struct ReferenceDoc {
    let lines: [String]

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The file at `path` under the repository root (`docs/SCENARIOS.md`).
    static func load(_ path: String) -> ReferenceDoc {
        let text = (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)) ?? ""
        return ReferenceDoc(lines: text.components(separatedBy: "\n"))
    }

    /// The lines under the heading whose text is `heading` (`## Ops` → "Ops"), up to the next
    /// heading of any level. Empty when there is no such heading.
    func section(_ heading: String) -> [String] {
        guard let start = lines.firstIndex(where: { ReferenceDoc.headingText($0) == heading }) else { return [] }
        let rest = lines[(start + 1)...]
        let end = rest.firstIndex { ReferenceDoc.headingText($0) != nil } ?? lines.endIndex
        return Array(lines[(start + 1)..<end])
    }

    /// The section's tables, each as its body rows (header and separator dropped), each row as
    /// its cells.
    func tables(_ heading: String) -> [[[String]]] {
        var tables: [[[String]]] = []
        var current: [[String]]?
        for line in section(heading) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("|") else {
                if let table = current { tables.append(table) }
                current = nil
                continue
            }
            var cells = trimmed.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            cells.removeFirst(); cells.removeLast()
            if current == nil { current = [] ; continue } // the header row
            if cells.allSatisfy({ $0.allSatisfy { $0 == "-" || $0 == ":" } }) { continue }
            current?.append(cells)
        }
        if let table = current { tables.append(table) }
        return tables
    }

    /// The name in each row's first cell (its first backticked word) of the section's `index`-th table.
    func names(_ heading: String, table index: Int = 0) -> [String] {
        let tables = tables(heading)
        guard index < tables.count else { return [] }
        return tables[index].compactMap { ReferenceDoc.backticked($0[0]).first }
    }

    /// The row whose first cell names `name`, in the section's `index`-th table.
    func row(_ heading: String, _ name: String, table index: Int = 0) -> [String]? {
        let tables = tables(heading)
        guard index < tables.count else { return nil }
        return tables[index].first { ReferenceDoc.backticked($0[0]).first == name }
    }

    /// Every backticked span in the section, tables and prose.
    func backtickedWords(_ heading: String) -> Set<String> {
        Set(section(heading).flatMap { ReferenceDoc.backticked($0) })
    }

    /// The backticked spans of `text`, in order.
    static func backticked(_ text: String) -> [String] {
        let parts = text.components(separatedBy: "`")
        return stride(from: 1, to: parts.count, by: 2).map { parts[$0] }
    }

    /// The backticked spans of `text`, each with whether a `?` follows it (an optional argument).
    static func arguments(_ text: String) -> [(name: String, optional: Bool)] {
        let parts = text.components(separatedBy: "`")
        return stride(from: 1, to: parts.count, by: 2).map { index in
            (parts[index], index + 1 < parts.count && parts[index + 1].hasPrefix("?"))
        }
    }

    private static func headingText(_ line: String) -> String? {
        guard line.hasPrefix("#") else { return nil }
        let text = line.drop { $0 == "#" }
        guard text.hasPrefix(" ") else { return nil }
        return text.trimmingCharacters(in: .whitespaces)
    }
}
