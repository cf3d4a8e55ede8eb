import Foundation
import Testing
import SyncLab

/// The built-in policies are apps written only against the public app API (issue 11): a team
/// that registers them as its own apps gets what the built-ins give, and their sources use no
/// API a team could not.
@Suite("The built-in apps on the public app API")
struct BuiltInAppsTests {
    @Test("each built-in document app, registered as a team's app, ends where the built-in policy ends", arguments: [
        ("lastWriterWins", "TeamLastWriterWins"), ("keepVersions", "TeamKeepVersions"), ("keepBoth", "TeamKeepBoth"), ("merge", "TeamMerge"),
    ])
    func documentsAppsMatchTheBuiltIns(builtIn: String, team: String) throws {
        let expected = try DocumentsAppTests.scenario(builtIn).run()
        let hosted = try DocumentsAppTests.scenario(team).run()
        #expect(hosted.final == expected.final)
        #expect(hosted.metrics.conflicts == expected.metrics.conflicts)
        #expect(hosted.metrics.unresolvedConflicts == expected.metrics.unresolvedConflicts)
        #expect(hosted.anomalies.map(\.kind) == expected.anomalies.map(\.kind))
    }

    @Test("keepBoth's platform-named copy and merge's three-way merge, through the public API")
    func copyNamesAndMerge() throws {
        let documents = DocumentsAppTests().finalDocuments(try DocumentsAppTests.scenario("TeamKeepBoth").run())
        #expect(documents.members.map(\.key).contains { $0.hasPrefix("n (conflict ") && $0.hasSuffix(".txt") }, "\(documents)")
        let merged = try DocumentsAppTests.scenario("TeamMerge").run()
        guard case .string(let text)? = DocumentsAppTests().finalDocuments(merged)["n.txt"] else {
            Issue.record("no n.txt: \(merged.final)")
            return
        }
        #expect(text.contains("eggs\n") && text.contains("bread\n"), "\(text)")
        merged.expectNoAnomalies()
    }

    /// Names the app module declares without `public` and never with it: what an app written only
    /// against the public API cannot use (a name also declared public, such as a protocol
    /// requirement an adapter implements, is reachable).
    static func nonPublicNames() throws -> Set<String> {
        let folder = #filePath.replacingOccurrences(of: "Tests/LibraryTests/BuiltInAppsTests.swift", with: "Sources/SyncLabApps")
        var names: Set<String> = [], publicNames: Set<String> = []
        // Top-level and member declarations only (indented at most one level): locals are no API.
        let declaration = /^ {0,4}(?:package |internal |private |fileprivate |private\(set\) |package private\(set\) |static |final |mutating )*(?:var|let|func|init|struct|enum|class|protocol|typealias)\s*([A-Za-z_][A-Za-z0-9_]*)?/
        for file in try FileManager.default.contentsOfDirectory(atPath: folder) where file.hasSuffix(".swift") {
            var inPublicProtocol = false
            for line in try String(contentsOfFile: folder + "/" + file, encoding: .utf8).split(separator: "\n") {
                // A public protocol's requirements are public without saying so.
                if line.hasPrefix("public protocol ") { inPublicProtocol = true }
                if line == "}" { inPublicProtocol = false }
                let publicLine = inPublicProtocol || line.contains("public ")
                guard let match = line.replacingOccurrences(of: "public ", with: "").firstMatch(of: declaration) else { continue }
                let name = match.output.1.map(String.init) ?? "init"
                if publicLine { publicNames.insert(name) } else { names.insert(name) }
            }
        }
        return names.subtracting(publicNames)
    }

    @Test("the built-in apps' sources import nothing and use no name the app module keeps from teams")
    func builtInsUseOnlyPublicAPI() throws {
        let folder = #filePath.replacingOccurrences(of: "Tests/LibraryTests/BuiltInAppsTests.swift", with: "Sources/SyncLabApps/BuiltInApps")
        let hidden = try Self.nonPublicNames()
        #expect(hidden.contains("content") && hidden.contains("copies") && hidden.contains("PlistConversion"), "\(hidden.sorted())")
        #expect(hidden.contains("lending") && hidden.contains("giveBack") && hidden.contains("removedFields"), "\(hidden.sorted())")
        // Every file but the factory that hosts them (BuiltInApps.swift).
        let appFiles = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".swift") && $0 != "BuiltInApps.swift" }.sorted()
        #expect(appFiles == ["ClientWinsRecordsApp.swift", "HeldConflict.swift", "KVSReaderApp.swift", "KeepBothApp.swift", "KeepVersionsApp.swift", "LastWriterWinsApp.swift",
                             "MergeApp.swift", "MergeRecordsApp.swift", "PolicyRecordsApp.swift", "RecordsConflictPolicy.swift", "ServerWinsRecordsApp.swift",
                             "WaitingVersion.swift"])
        let word = /[A-Za-z_][A-Za-z0-9_]*/
        for file in appFiles {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
            #expect(!code.contains { $0.hasPrefix("import ") || $0.contains(" import ") }, "\(file) imports")
            let used = Set(code.flatMap { $0.matches(of: word).map { String($0.output) } })
            #expect(used.intersection(hidden).subtracting(["init"]).isEmpty, "\(file) uses \(used.intersection(hidden).sorted())")
        }
    }
}
