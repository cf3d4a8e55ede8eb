import Foundation
import Testing

/// Issue 11: "doc comments on every public symbol". Reads the sources of the modules an app team
/// sees (the umbrella, the app API it re-exports, the test helpers and the command line entry)
/// and lists every `public` declaration without a `///` comment above it (attributes between
/// are allowed).
@Suite("The public surface is documented")
struct PublicSurfaceTests {
    static let modules = ["SyncLab", "SyncLabApps", "SyncLabTesting", "SyncLabCLI"]

    /// `FILE:LINE: declaration` for each undocumented public declaration under `folder`.
    static func undocumented(in folder: URL) throws -> [String] {
        var found: [String] = []
        guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        for case let file as URL in files where file.pathExtension == "swift" {
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() {
                let code = line.drop { $0 == " " }
                guard code.hasPrefix("public ") || (code.hasPrefix("@") && code.contains(" public ")) else { continue }
                if code.contains("public import ") { continue }
                var above = index - 1
                while above >= 0, lines[above].drop(while: { $0 == " " }).hasPrefix("@") { above -= 1 }
                if above >= 0, lines[above].drop(while: { $0 == " " }).hasPrefix("///") { continue }
                found.append("\(file.lastPathComponent):\(index + 1): \(code.prefix(80))")
            }
        }
        return found.sorted()
    }

    @Test("every public declaration an app team can reach has a doc comment")
    func everyPublicSymbolDocumented() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
        var missing: [String] = []
        for module in Self.modules { missing += try Self.undocumented(in: sources.appendingPathComponent(module)) }
        #expect(missing.isEmpty, "undocumented public declarations:\n\(missing.joined(separator: "\n"))")
    }

    @Test("the scan finds an undocumented declaration, skips a documented one and attributes")
    func scanFindsGaps() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("synclab-surface-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = "/// Documented.\n@frozen\npublic struct A {}\npublic struct B {}\n@_exported public import Foundation\n"
        try text.write(to: folder.appendingPathComponent("X.swift"), atomically: true, encoding: .utf8)
        #expect(try Self.undocumented(in: folder) == ["X.swift:4: public struct B {}"])
    }
}
