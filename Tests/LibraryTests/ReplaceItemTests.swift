import Testing
import SyncLab
import SyncLabTesting

/// The naive resolver many apps ship: the version with the latest modification date wins, made
/// current with `replaceItem(at:)`, and the others are thrown away.
struct LatestVersionNotesApp: DocumentsApp {
    /// Also remove the versions not chosen (`removeOtherVersionsOfItem`, `isResolved = true`).
    var removesOthers = true

    mutating func documentIsInConflict(_ conflict: DocumentConflict, resolver: DocumentConflictResolver) {
        let versions = [conflict.currentVersion] + conflict.otherVersions
        guard let latest = versions.max(by: { $0.modificationDate < $1.modificationDate }) else { return }
        resolver.replaceItem(with: latest)
        if removesOthers {
            resolver.removeOtherVersions()
            resolver.markResolved()
        }
    }
}

@Suite("A document app chooses a version with replaceItem(at:)")
struct ReplaceItemTests {
    /// `DocumentsAppTests`' notes race: A and B append offline, A at 20s, B at 30s (the later
    /// edit). `bFirst`: B reconnects first, so under `winner: arrival` the cloud makes A's edit
    /// current and keeps B's as the other version, which the app then chooses over it.
    static func scenario(_ app: String, winner: String? = nil, bFirst: Bool = false) throws -> Scenario {
        try DocumentsAppTests.scenario(app, winner: winner, bFirst: bFirst)
    }

    static func finalNote(_ result: RunResult) -> ScenarioValue? {
        guard case .object(let main)? = result.final["main"], case .object(let documents)? = main["documents"] else { return nil }
        return documents["n.txt"]
    }

    @Test("choosing the other version keeps its write: every device shows it, and the version dropped is a lost update naming the app")
    func choosingTheOtherVersion() throws {
        let result = try Self.scenario("LatestNotes", winner: "arrival", bFirst: true).run()
        #expect(Self.finalNote(result) == .string("milk\nbread\n"), "\(result.final)")
        #expect(result.metrics.converged && result.metrics.unresolvedConflicts == 0)
        // The chosen version was made current as it is: no merge write, a `replace` request.
        #expect(result.trace.contains(#""kind":"replace""#))
        #expect(!result.trace.contains("derivedWrite"))
        let lost = result.expectAnomaly("lostUpdate", store: "documents", device: "A")
        #expect(lost.count == 1)
        #expect(lost.first?.explanation.contains("policy LatestNotes") == true, "\(lost)")
        #expect(lost.first?.replacedBy == "B:1", "\(lost)")
        // B's write, the one chosen, survives.
        #expect(!result.anomalies.contains { $0.kind == "lostUpdate" && $0.device == "B" }, "\(result.anomalies)")
    }

    @Test("replaceItem alone replaces the current version (lost) and ends a two-version conflict")
    func replaceWithoutRemoving() throws {
        let result = try Self.scenario("LatestNotesKeepingOthers", winner: "arrival", bFirst: true).run()
        #expect(Self.finalNote(result) == .string("milk\nbread\n"), "\(result.final)")
        #expect(result.metrics.converged && result.metrics.unresolvedConflicts == 0)
        let lost = result.expectAnomaly("lostUpdate", store: "documents", device: "A")
        #expect(lost.first?.explanation.contains("policy LatestNotesKeepingOthers") == true, "\(lost)")
    }

    @Test("choosing the current version is a no-op keep: the same run as removing the other versions")
    func choosingTheCurrentVersion() throws {
        let latest = try Self.scenario("LatestNotes").run()
        let naive = try Self.scenario("NaiveNotes").run()
        #expect(!latest.trace.contains(#""kind":"replace""#))
        #expect(latest.trace.replacingOccurrences(of: "LatestNotes", with: "NaiveNotes") == naive.trace)
        #expect(Self.finalNote(latest) == .string("milk\nbread\n"), "\(latest.final)")
        latest.expectAnomaly("lostUpdate", store: "documents", device: "A")
    }

    @Test("two devices choosing at once: the cloud applies the first choice, refuses the second, and both show the first")
    func concurrentChoicesConverge() throws {
        // Slow links: B hears of the conflict A's upload makes and replaces while A's own
        // replacement, made on the state A saw, is on the wire to a document changed since.
        var builder = DocumentsAppTests.builder("LatestNotes", winner: "arrival", bFirst: true)
        builder.devices[0]["network"] = ["latency": "1s"]
        builder.devices[1]["network"] = ["latency": "600ms"]
        let result = try Scenario(builder, apps: DocumentsAppTests.apps()).run()
        #expect(result.trace.components(separatedBy: #""kind":"replace""#).count - 1 == 4, "two sends, two receipts")
        #expect(result.trace.contains(#""refused":"the document changed""#))
        #expect(Self.finalNote(result) == .string("milk\nbread\n"), "\(result.final)")
        #expect(result.metrics.converged && result.metrics.unresolvedConflicts == 0)
        let lost = result.expectAnomaly("lostUpdate", store: "documents", device: "A")
        #expect(lost.count == 1 && lost.first?.explanation.contains("policy LatestNotes") == true, "\(lost)")
    }

    @Test("a replacement the device learns is stale before sending it is not sent")
    func staleReplacementIsDropped() throws {
        // Only A's link is slow: B replaces first and its push makes A fetch before A's
        // replacement goes (one request at a time), so A drops it and shows B's choice.
        var builder = DocumentsAppTests.builder("LatestNotes", winner: "arrival", bFirst: true)
        builder.devices[0]["network"] = ["latency": "1s"]
        let result = try Scenario(builder, apps: DocumentsAppTests.apps()).run()
        #expect(result.trace.components(separatedBy: #""kind":"replace""#).count - 1 == 2, "B's send and its receipt")
        #expect(result.trace.contains(#""event":"replaceDropped""#))
        #expect(Self.finalNote(result) == .string("milk\nbread\n"), "\(result.final)")
        #expect(result.metrics.converged && result.metrics.unresolvedConflicts == 0)
    }

    @Test("the same scenario twice gives the same trace")
    func deterministic() throws {
        let first = try Self.scenario("LatestNotes", winner: "arrival", bFirst: true).run()
        let second = try Self.scenario("LatestNotes", winner: "arrival", bFirst: true).run()
        #expect(first.trace == second.trace)
        #expect(first.anomalies == second.anomalies)
    }
}
