import Foundation
import Testing
import SyncLab

/// Document engines and the cloud together, driven through the public `World` (issue 11): what
/// the user sees (device views, the cloud's final state) and what the trace says happened (ops'
/// outcomes, the cloud's `conflict` and `rejected` decisions, its `docUpload` log). The tests
/// that need delivery orders, lost or reordered messages, or engine internals (the upload's
/// base and chain, conflict versions, derived writes' parents) stay on the sans-IO
/// `DocumentWorld` (`DocumentEngineTests`).
@Suite struct DocumentEndToEndTests {
    /// A world of devices A and B with `limits`.
    static func world(limits: ScenarioObject? = nil) throws -> World {
        var builder = ScenarioBuilder(name: "documents end to end")
        builder.seed = 1
        builder.device("A")
        builder.device("B")
        builder.limits = limits
        return try World(Scenario(builder))
    }

    /// The trace's events of kind `ev` (one JSON object a line), each as a dictionary.
    static func events(_ ev: String, in world: World) -> [[String: Any]] {
        world.verdict().trace.split(separator: "\n").compactMap { line in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return object?["ev"] as? String == ev ? object : nil
        }
    }

    /// The outcomes of the cloud's document uploads: `VERSION PATH OUTCOME`, in order.
    static func cloudUploads(in world: World) -> [String] {
        events("log", in: world).filter { $0["device"] as? String == "cloud" && $0["event"] as? String == "docUpload" }.map {
            let details = $0["details"] as? [String: String] ?? [:]
            return "\(details["version"] ?? "?") \(details["path"] ?? "?") \(details["outcome"] ?? "?")"
        }
    }

    /// The cloud's final documents of the main account.
    static func cloudDocuments(_ result: RunResult) -> ScenarioValue? {
        guard case .object(let account)? = result.final["main"] else { return nil }
        return account["documents"]
    }

    /// Every device shows what the cloud holds, the checker agrees, and nothing is left to do.
    /// Finishes the world.
    /// - Returns: the finished run.
    @discardableResult
    static func expectConverged(_ world: World, sourceLocation: SourceLocation = #_sourceLocation) -> RunResult {
        #expect(world.isQuiescent, sourceLocation: sourceLocation)
        #expect(world.device("A").view == world.device("B").view, sourceLocation: sourceLocation)
        let result = world.finish()
        #expect(result.metrics.converged, sourceLocation: sourceLocation)
        #expect(Self.cloudDocuments(result) == .object(ScenarioObject(members: world.device("A").view.documents
            .sorted { $0.key < $1.key }.map { ScenarioMember(key: $0.key, value: $0.value) })), sourceLocation: sourceLocation)
        return result
    }

    @Test("an edit concurrent with a delete comes back on the deleting device too")
    func editBeatsDelete() throws {
        let world = try Self.world()
        world.advance(by: .seconds(1))
        try world.device("A").docSave("groceries.txt", "milk\n")
        #expect(world.runUntilQuiescent())
        try world.device("B").airplane(true)
        try world.device("B").docAppend("groceries.txt", "eggs\n")
        try world.device("A").docDelete("groceries.txt")
        #expect(world.runUntilQuiescent())
        #expect(world.device("A").view.documents["groceries.txt"] == nil)
        try world.device("A").docDelete("groceries.txt")
        #expect(Self.events("op", in: world).filter { $0["op"] as? String == "doc.delete" }.map { $0["outcome"] as? String } == ["accepted", "unchanged"])
        try world.device("B").airplane(false)
        #expect(world.runUntilQuiescent())
        #expect(world.device("A").view.documents["groceries.txt"] == "milk\neggs\n")
        #expect(Self.events("conflict", in: world).map { $0["writes"] as? [String] ?? [] } == [["B:1", "A:2"]])
        Self.expectConverged(world)
    }

    @Test("a crash keeps a pending edit, which uploads after the restart")
    func crashKeepsPendingEdit() throws {
        let world = try Self.world()
        world.advance(by: .seconds(1))
        try world.device("A").airplane(true)
        try world.device("A").docSave("note.txt", "saved offline\n")
        try world.device("A").crash()
        world.advance(by: .seconds(1))
        try world.device("A").restart()
        #expect(world.device("A").view.documents == ["note.txt": "saved offline\n"])
        #expect(Self.cloudUploads(in: world).isEmpty)
        try world.device("A").airplane(false)
        #expect(world.runUntilQuiescent())
        // The edit made before the crash is what uploads: it was still pending after the restart.
        #expect(Self.cloudUploads(in: world) == ["A:1 note.txt accepted"])
        #expect(world.device("B").view.documents == ["note.txt": "saved offline\n"])
        Self.expectConverged(world)
    }

    @Test("an upload past the quota stays pending, is reported once, and succeeds when space frees")
    func quotaBlockedUploadRetries() throws {
        let world = try Self.world(limits: ["storage": 1_000])
        world.advance(by: .seconds(1))
        try world.device("A").perform("doc.save", ["path": "video.mov", "content": ["$size": 700]])
        #expect(world.runUntilQuiescent())
        try world.device("B").perform("doc.save", ["path": "photo.raw", "content": ["$size": 600]])
        world.runUntilQuiescent()
        // Retries come and go for a while: still one report.
        world.advance(by: .seconds(600))
        let rejections = Self.events("rejected", in: world).map { "\($0["device"] ?? "") \($0["item"] ?? ""): \($0["error"] ?? "") \($0["limit"] ?? "")" }
        #expect(rejections == ["B photo.raw: quotaExceeded storage"])
        #expect(world.device("B").view.documents.keys.sorted() == ["photo.raw", "video.mov"])
        try world.device("A").docDelete("video.mov")
        world.advance(by: .seconds(600))
        #expect(world.runUntilQuiescent())
        #expect(Self.cloudUploads(in: world).filter { $0.hasSuffix("accepted") } == ["A:1 video.mov accepted", "A:2 video.mov accepted", "B:1 photo.raw accepted"])
        let result = Self.expectConverged(world)
        #expect(Self.cloudDocuments(result).map { if case .object(let object) = $0 { object.members.map(\.key) } else { [] } } == ["photo.raw"])
    }
}
