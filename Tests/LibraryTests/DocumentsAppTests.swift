import Testing
import SyncLab
import SyncLabTesting

/// A notes app's resolver: keeps every line any version has (current first), then resolves.
struct UnionNotesApp: DocumentsApp {
    mutating func documentIsInConflict(_ conflict: DocumentConflict, resolver: DocumentConflictResolver) {
        var lines: [Substring] = []
        for version in [conflict.currentVersion] + conflict.otherVersions {
            for line in (version.text ?? "").split(separator: "\n", omittingEmptySubsequences: false) where !line.isEmpty && !lines.contains(line) {
                lines.append(line)
            }
        }
        resolver.replaceContent(with: lines.map { $0 + "\n" }.joined())
    }
}

/// The naive twin: keeps the current version and throws the others away.
struct NaiveNotesApp: DocumentsApp {
    mutating func documentIsInConflict(_ conflict: DocumentConflict, resolver: DocumentConflictResolver) {
        resolver.removeOtherVersions()
        resolver.markResolved()
    }
}

/// Keeps both: a copy of every other version, then resolves (the built-in keepBoth, through the public API).
struct CopyingNotesApp: DocumentsApp {
    mutating func documentIsInConflict(_ conflict: DocumentConflict, resolver: DocumentConflictResolver) {
        for version in conflict.otherVersions {
            resolver.saveCopy(of: version, as: "\(conflict.path) (from \(version.savingDeviceName))")
        }
        resolver.markResolved()
    }
}

/// Writes the common ancestor it was shown as the content (to show what an app reads there).
struct AncestorNotesApp: DocumentsApp {
    mutating func documentIsInConflict(_ conflict: DocumentConflict, resolver: DocumentConflictResolver) {
        resolver.replaceContent(with: "ancestor: " + (conflict.commonAncestorText ?? "none"))
    }
}

@Suite("A team's document app on every device")
struct DocumentsAppTests {
    /// The notes race with `app` on every device (`builder`).
    static func scenario(_ app: String, winner: String? = nil, bFirst: Bool = false) throws -> Scenario {
        try Scenario(builder(app, winner: winner, bFirst: bFirst), apps: apps())
    }

    /// The test apps, by the names the scenarios use.
    static func apps() throws -> AppRegistry {
        var apps = AppRegistry.builtIn
        try apps.register(documents: "UnionNotes") { UnionNotesApp() }
        try apps.register(documents: "NaiveNotes") { NaiveNotesApp() }
        try apps.register(documents: "CopyingNotes") { CopyingNotesApp() }
        try apps.register(documents: "AncestorNotes") { AncestorNotesApp() }
        try apps.register(documents: "LatestNotes") { LatestVersionNotesApp() }
        try apps.register(documents: "LatestNotesKeepingOthers") { LatestVersionNotesApp(removesOthers: false) }
        // The built-in apps under a team's names (`BuiltInAppsTests`).
        try apps.register(documents: "TeamLastWriterWins") { LastWriterWinsApp() }
        try apps.register(documents: "TeamKeepVersions") { KeepVersionsApp() }
        try apps.register(documents: "TeamKeepBoth") { KeepBothApp() }
        try apps.register(documents: "TeamMerge") { MergeApp() }
        return apps
    }

    /// A and B append to a note offline, A at 20s and B at 30s; A reconnects first, or B with
    /// `bFirst`. `winner` sets the cloud's conflict rule (nil: the default).
    static func builder(_ app: String, winner: String? = nil, bFirst: Bool = false) -> ScenarioBuilder {
        var builder = ScenarioBuilder(name: "notes \(app)")
        builder.seed = 3
        builder.apps = ["documents": .string(app)]
        if let winner { builder.engine = ["documents": .object(["winner": .string(winner)])] }
        builder.device("A")
        builder.device("B")
        builder.step(at: "0s", device: "A", op: "doc.save", ["path": "n.txt", "content": "milk\n"])
        builder.step(at: "10s", device: "A", op: "airplane.on")
        builder.step(at: "10s", device: "B", op: "airplane.on")
        builder.step(at: "20s", device: "A", op: "doc.append", ["path": "n.txt", "text": "eggs\n"])
        builder.step(at: "30s", device: "B", op: "doc.append", ["path": "n.txt", "text": "bread\n"])
        builder.step(at: bFirst ? "90s" : "60s", device: "A", op: "airplane.off")
        builder.step(at: bFirst ? "60s" : "90s", device: "B", op: "airplane.off")
        return builder
    }

    func finalDocuments(_ result: RunResult) -> ScenarioObject {
        guard case .object(let main)? = result.final["main"], case .object(let documents)? = main["documents"] else { return [:] }
        return documents
    }

    @Test("the app's own resolver merges every line: converged, nothing lost, and the conflict counted")
    func unionResolver() throws {
        let result = try Self.scenario("UnionNotes").run()
        guard case .string(let text)? = finalDocuments(result)["n.txt"] else { Issue.record("no n.txt: \(result.final)"); return }
        #expect(text.contains("milk\n") && text.contains("eggs\n") && text.contains("bread\n"), "\(text)")
        result.expectNoAnomalies()
        #expect(result.metrics.conflicts == 1 && result.metrics.unresolvedConflicts == 0 && result.metrics.converged)
        #expect(result.trace.contains(#""policy":"UnionNotes""#))
    }

    @Test("the naive twin removes the other version: the checker finds the lost edit")
    func naiveTwin() throws {
        let result = try Self.scenario("NaiveNotes").run()
        result.expectAnomaly("lostUpdate", store: "documents")
        #expect(result.metrics.unresolvedConflicts == 0)
    }

    @Test("copies saved through the public API keep both versions; doing nothing keeps the conflict open")
    func copiesAndNothing() throws {
        let copied = try Self.scenario("CopyingNotes").run()
        #expect(finalDocuments(copied).members.count == 2, "\(copied.final)")
        copied.expectNoAnomalies()
        let builtIn = try Self.scenario("keepVersions").run()
        #expect(builtIn.metrics.unresolvedConflicts == 1)
    }

    @Test("the common ancestor an app reads is the version both edits started from")
    func commonAncestor() throws {
        let result = try Self.scenario("AncestorNotes").run()
        #expect(finalDocuments(result)["n.txt"] == .string("ancestor: milk\n"), "\(result.final)")
    }
}
