import Foundation
import Testing

/// `--host-records-policies` (issue 11, a comparison aid): the records policies run as the
/// built-in records apps on the platform, so the same file can be compared both ways.
@Suite("--host-records-policies runs the records policies as the built-in apps", .serialized)
struct HostRecordsPoliciesTests {
    @Test("run: the serverWins variant's conflict is settled by the app on the platform, to the same end")
    func runHostsThePolicies() throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let arguments = ["run", "Scenarios/records-offline-fields.json", "--variant", "serverWins"]
        let engine = try Synclab.run(arguments + ["--out", directory.appendingPathComponent("engine").path])
        let hosted = try Synclab.run(arguments + ["--out", directory.appendingPathComponent("hosted").path, "--host-records-policies"])
        #expect(engine.status == 0 && hosted.status == 0, "\(hosted.stdout)\(hosted.stderr)")
        // Who settled the conflict: the engine's policy, or the app (hosted on the platform).
        #expect(engine.stdout.contains("policy serverWins"), "\(engine.stdout)")
        // The app hosted in serverWins' place is named (spec27: it said "policy records app").
        #expect(hosted.stdout.contains("policy ServerWinsRecordsApp"), "\(hosted.stdout)")
        func final(_ folder: String) throws -> String {
            let text = try String(contentsOf: directory.appendingPathComponent("\(folder)/serverWins/result.json"), encoding: .utf8)
            return String(text[text.range(of: "\"final\"")!.lowerBound...])
        }
        #expect(try final("engine") == final("hosted"))
    }

    @Test("a device that never uses records: the hosted platform sends what the engine sends, so the traces are identical")
    func recordsFreeScenarioIsUnchanged() throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let arguments = ["run", "Scenarios/kvs-clock-skew.json", "--variant", "base"]
        let engine = try Synclab.run(arguments + ["--out", directory.appendingPathComponent("engine").path])
        let hosted = try Synclab.run(arguments + ["--out", directory.appendingPathComponent("hosted").path, "--host-records-policies"])
        #expect(engine.status == 0 && hosted.status == 0, "\(hosted.stdout)\(hosted.stderr)")
        func trace(_ folder: String) throws -> String {
            try String(contentsOf: directory.appendingPathComponent("\(folder)/base/trace.jsonl"), encoding: .utf8)
        }
        // Before: the platform fetched again once its subscription was made, though its launch
        // fetch went out after the subscription request (two messages more per device), and it
        // logged no fetch cycles.
        #expect(try trace("engine") == trace("hosted"))
    }

    // Records seed 191: a finding only the hosted apps show, still open (D and E set r0's title
    // at the same device time; `MergeRecordsApp` keeps its own edit on the tie, which the engine
    // breaks by write ids the app cannot see: docs/LIBRARY.md, docs/FUZZING.md session 16).
    // Seed 204 was pinned here until session 16 fixed it (fix40; its regression test is
    // `HostedRecordsFuzzFindingsTests`' held-conflict re-stamp and
    // `Scenarios/fuzz-hosted-held-conflict-record-gone-restamped.json`, since session 16's
    // generator also draws extra SPEC §5 steps for seed 204 and moved its scenario); seed 148
    // before it, until session 15's generator drew unusual field values and moved its scenario.
    static let openHostedSeed = "191"
    static let openHostedFingerprint = "lostUpdate.records.merge.record-save.by-record-save"

    @Test("fuzz: a finding only the hosted apps have shrinks to a minimal.json that synclab run --host-records-policies shows")
    func fuzzShrinksHostedFindings() throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("campaign")
        let seed = Self.openHostedSeed
        let fuzz = try Synclab.run(["fuzz", "--profile", "records", "--policy", "merge", "--seeds", "\(seed)..\(seed)", "--jobs", "1",
                                    "--host-records-policies", "--out", out.path])
        #expect(fuzz.status == 1, "\(fuzz.stdout)\(fuzz.stderr)")
        // Before: the shrinker ran the engine's policies, which do not show the finding, so only
        // original.json was written.
        let findings = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("findings").path).sorted()
        #expect(!findings.isEmpty)
        for fingerprint in findings {
            let minimal = out.appendingPathComponent("findings/\(fingerprint)/minimal.json").path
            #expect(FileManager.default.fileExists(atPath: minimal), "\(fingerprint): \(fuzz.stdout)")
            #expect(fuzz.stdout.contains("replay: synclab run \(minimal) --host-records-policies"), "\(fuzz.stdout)")
            #expect(!fuzz.stdout.contains("does not show the finding"), "\(fuzz.stdout)")
            let text = try String(contentsOfFile: minimal, encoding: .utf8)
            #expect(text.contains("synclab run minimal.json --host-records-policies"), "\(text)")
            // A promise the apps break: the hosted replay fails its expectations.
            let hosted = try Synclab.run(["run", minimal, "--out", directory.appendingPathComponent("replay-\(fingerprint)").path, "--host-records-policies"])
            #expect(hosted.status == 1, "\(hosted.stdout)\(hosted.stderr)")
            // Its replay line hosts them too (before: it named the file and seed only).
            #expect(hosted.stdout.contains("replay: swift run synclab run \(minimal) --seed \(seed) --host-records-policies"), "\(hosted.stdout)")
        }
    }

    @Test("shrink: a file only the hosted apps fail shrinks with --host-records-policies; the engine finds nothing to shrink")
    func shrinkHostsThePolicies() throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("campaign")
        let seed = Self.openHostedSeed
        _ = try Synclab.run(["fuzz", "--profile", "records", "--policy", "merge", "--seeds", "\(seed)..\(seed)", "--jobs", "1",
                             "--host-records-policies", "--out", out.path])
        let original = out.appendingPathComponent("findings/\(Self.openHostedFingerprint)/original.json").path
        let engine = try Synclab.run(["shrink", original, "--out", directory.appendingPathComponent("engine").path])
        #expect(engine.status == 0 && engine.stdout.contains("nothing to shrink"), "\(engine.stdout)\(engine.stderr)")
        // Before: the flag was refused (exit 2).
        let shrunk = directory.appendingPathComponent("hosted").path
        let hosted = try Synclab.run(["shrink", original, "--out", shrunk, "--host-records-policies"])
        #expect(hosted.status == 1, "\(hosted.stdout)\(hosted.stderr)")
        #expect(hosted.stdout.contains("replay: synclab run \(shrunk)/minimal.json --host-records-policies"), "\(hosted.stdout)")
        #expect(try Synclab.run(["run", shrunk + "/minimal.json", "--out", directory.appendingPathComponent("replay").path, "--host-records-policies"]).status == 1)
    }
}
