import Foundation
import Testing

@Suite("synclab fuzz and synclab shrink", .serialized)
struct FuzzCommandTests {
    func contents(_ path: URL) -> Data? { FileManager.default.contents(atPath: path.path) }

    @Test("shards 0/2 and 1/2 merged equal the unsharded campaign byte for byte; two runs are identical")
    func shardsMerge() throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let common = ["fuzz", "--profile", "kvs", "--find", "isolationViolation", "--seeds", "3..10", "--jobs", "2"]
        let whole = directory.appendingPathComponent("whole"), again = directory.appendingPathComponent("again")
        #expect(try Synclab.run(common + ["--out", whole.path]).status == 0)
        #expect(try Synclab.run(common + ["--out", again.path, "--jobs", "1"]).status == 0)
        for shard in 0..<2 {
            #expect(try Synclab.run(common + ["--shard", "\(shard)/2", "--out", directory.appendingPathComponent("s\(shard)").path]).status == 0)
        }
        let merged = directory.appendingPathComponent("merged")
        let merge = try Synclab.run(["fuzz", "merge", directory.appendingPathComponent("s1").path, directory.appendingPathComponent("s0").path, "--out", merged.path])
        #expect(merge.status == 0, "\(merge.stderr)")
        for name in ["campaign.json", "campaign.md"] {
            let expected = try #require(contents(whole.appendingPathComponent(name)))
            #expect(contents(merged.appendingPathComponent(name)) == expected, "\(name) differs after merge")
            #expect(contents(again.appendingPathComponent(name)) == expected, "\(name) differs between two runs")
        }
        // A shard missing is refused.
        #expect(try Synclab.run(["fuzz", "merge", directory.appendingPathComponent("s0").path, "--out", merged.path]).status == 2)
        // Shards of different campaigns: the message says what differs.
        let other = directory.appendingPathComponent("other")
        #expect(try Synclab.run(common.map { $0 == "3..10" ? "3..12" : $0 } + ["--shard", "1/2", "--out", other.path]).status == 0)
        let mismatch = try Synclab.run(["fuzz", "merge", directory.appendingPathComponent("s0").path, other.path, "--out", merged.path])
        #expect(mismatch.status == 2 && mismatch.stderr.contains("seeds 3..10 vs 3..12") && mismatch.stderr.contains("--time"), "\(mismatch.stderr)")
    }

    /// Merging into one of the shards' folders removed that shard's findings folders (each
    /// was deleted as the destination, then copied from itself): the merged summary listed
    /// fingerprints with no folder. Refused now; and a merge copies exactly the unsharded
    /// campaign's findings folders.
    @Test("merge copies the unsharded findings folders, and refuses an --out that is one of the shards")
    func mergeFindingsFolders() throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let common = ["fuzz", "--profile", "documents", "--policy", "lastWriterWins", "--find", "lostUpdate", "--seeds", "36..38", "--jobs", "1"]
        let whole = directory.appendingPathComponent("whole")
        #expect(try Synclab.run(common + ["--out", whole.path]).status == 1)
        let shards = (0..<2).map { directory.appendingPathComponent("s\($0)") }
        for (index, shard) in shards.enumerated() {
            _ = try Synclab.run(common + ["--shard", "\(index)/2", "--out", shard.path])
        }
        let merged = directory.appendingPathComponent("merged")
        #expect(try Synclab.run(["fuzz", "merge"] + shards.map(\.path) + ["--out", merged.path]).status == 1)
        let fingerprints = try FileManager.default.contentsOfDirectory(atPath: whole.appendingPathComponent("findings").path).sorted()
        #expect(!fingerprints.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: merged.appendingPathComponent("findings").path).sorted() == fingerprints)
        for fingerprint in fingerprints {
            let file = "findings/\(fingerprint)/minimal.json"
            #expect(contents(merged.appendingPathComponent(file)) == contents(whole.appendingPathComponent(file)), "\(file)")
        }
        // A shard whose findings folder went missing (an artifact upload without it): said on stderr.
        let shard1Findings = try FileManager.default.contentsOfDirectory(atPath: shards[1].appendingPathComponent("findings").path).sorted()
        #expect(!shard1Findings.isEmpty, "seed 37 (shard 1/2) shows a finding of its own")
        if let gone = shard1Findings.first {
            let copy = directory.appendingPathComponent("s1-copy")
            try FileManager.default.copyItem(at: shards[1], to: copy)
            try FileManager.default.removeItem(at: copy.appendingPathComponent("findings/\(gone)"))
            let partial = try Synclab.run(["fuzz", "merge", shards[0].path, copy.path, "--out", directory.appendingPathComponent("partial").path])
            #expect(partial.stderr.contains("findings/\(gone) is missing"), "\(partial.stderr)")
        }
        let before = try FileManager.default.contentsOfDirectory(atPath: shards[0].appendingPathComponent("findings").path).sorted()
        let intoShard = try Synclab.run(["fuzz", "merge"] + shards.map(\.path) + ["--out", shards[0].path + "/"])
        #expect(intoShard.status == 2 && intoShard.stderr.contains("is one of the shard folders"), "\(intoShard.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: shards[0].appendingPathComponent("findings").path).sorted() == before)
        for fingerprint in before {
            #expect(FileManager.default.fileExists(atPath: shards[0].appendingPathComponent("findings/\(fingerprint)/minimal.json").path))
        }
    }

    @Test("a bad --out is refused before any seed runs, in words")
    func badOutRefusedFirst() throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("taken")
        try Data("x".utf8).write(to: file)
        let output = try Synclab.run(["fuzz", "--profile", "kvs", "--count", "3", "--jobs", "1", "--out", file.path])
        #expect(output.status == 2)
        // Checked first, as `synclab run` checks its --out: not a raw NSError after the campaign.
        #expect(output.stderr == "synclab fuzz: \(file.path) exists and is not a folder: --out names the folder reports are written into\n", "\(output.stderr)")
        #expect(output.stdout.isEmpty)
        // So do fuzz merge, shrink and report, before reading or running anything.
        let refusal = "\(file.path) exists and is not a folder: --out names the folder reports are written into\n"
        let merge = try Synclab.run(["fuzz", "merge", directory.path, "--out", file.path])
        #expect(merge.status == 2 && merge.stderr == "synclab fuzz merge: " + refusal, "\(merge.stderr)")
        let shrink = try Synclab.run(["shrink", Synclab.packageRoot.appendingPathComponent("Scenarios/records-offline-fields.json").path,
                                      "--variant", "clientWins", "--anomaly", "lostUpdate", "--out", file.path])
        #expect(shrink.status == 2 && shrink.stderr == "synclab shrink: " + refusal, "\(shrink.stderr)")
        let report = try Synclab.run(["report", Synclab.packageRoot.appendingPathComponent("Reports/kvs-clock-skew").path, "--out", file.path])
        #expect(report.status == 2 && report.stderr == "synclab report: " + refusal, "\(report.stderr)")
    }

    @Test("a finding is shrunk into a minimal scenario that synclab run reproduces; exit 1")
    func findingIsShrunk() throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out")
        let output = try Synclab.run(["fuzz", "--profile", "documents", "--policy", "lastWriterWins", "--find", "lostUpdate", "--seeds", "37..37", "--out", out.path])
        #expect(output.status == 1)
        let folder = out.appendingPathComponent("findings/lostUpdate.documents.lastWriterWins.doc-save-offline.by-doc-save")
        for name in ["original.json", "minimal.json", "timeline.html", "report.md"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path), "\(name) missing")
        }
        let run = try Synclab.run(["run", folder.appendingPathComponent("minimal.json").path, "--out", directory.appendingPathComponent("rerun").path])
        #expect(run.status == 0, "minimal.json asserts the lost update: \(run.stdout)")
        #expect(output.stdout.contains("shrunk from"))
    }

    @Test("bad input exits 2", arguments: [
        ["fuzz", "--shard", "2/2"], ["fuzz", "--policy", "nope"], ["fuzz", "--profile", "photos"], ["fuzz", "--find", "lostUpdates"],
        ["fuzz", "--seeds", "9..3"], ["shrink"], ["shrink", "Scenarios/airplane-lost-update.json", "--anomaly", "nope"],
    ])
    func badInput(arguments: [String]) throws {
        #expect(try Synclab.run(arguments).status == 2)
    }

    /// A `--policy` of a store the profile makes no traffic for was silently ignored: the
    /// campaign ran the lossless defaults and `campaign.json` named them, not what was asked.
    @Test("a --policy the profile never runs is bad input, naming the profile's policies", arguments: [
        (["--profile", "documents", "--policy", "serverWins"], "--policy serverWins is not a policy of --profile documents"),
        (["--policy", "clientWins", "--profile", "records", "--policy", "keepBoth"], "--policy keepBoth is not a policy of --profile records, whose seeds would never run it (its policies: merge, serverWins, clientWins)"),
        (["--profile", "kvs", "--policy", "merge"], "--profile kvs has no conflict policy to choose"),
    ])
    func policyOutsideProfile(arguments: [String], message: String) throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("campaign")
        let output = try Synclab.run(["fuzz"] + arguments + ["--seeds", "1..1", "--jobs", "1", "--out", out.path])
        #expect(output.status == 2 && output.stderr.contains(message), "\(output.stdout)\(output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("campaign.json").path))
        // Every policy of the mixed profile applies.
        #expect(try Synclab.run(["fuzz", "--profile", "mixed", "--policy", "serverWins", "--policy", "keepBoth", "--help"]).status == 0)
    }

    /// An app named in `apps` takes precedence over `engine.*.conflict` (docs/LIBRARY.md), and
    /// the promises are that app's: a file naming the built-in `lastWriterWins` in `apps` was
    /// judged by the engine's default keepVersions, so its documented loss counted as a broken
    /// promise and `shrink` shrank it (exit 1) while the same run under `engine` had nothing to shrink.
    @Test("shrink judges a device by the policy its apps section names", arguments: [
        (#""apps": {"documents": "lastWriterWins"},"#, 0),
        (#""engine": {"documents": {"conflict": "lastWriterWins"}},"#, 0),
        (#""apps": {"documents": "lastWriterWins"}, "variants": [{"name": "kv", "apps": {"documents": "keepVersions"}}],"#, 0),
    ])
    func promisesOfTheNamedApp(section: String, status: Int32) throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("lww.json")
        try Data("""
        {"format": "synclab/1", "name": "lww", \(section)
         "devices": [{"id": "A"}, {"id": "B"}],
         "steps": [{"at": "1s", "device": "A", "op": "airplane.on"},
                   {"at": "2s", "device": "A", "op": "doc.save", "path": "n.txt", "content": "a"},
                   {"at": "3s", "device": "B", "op": "doc.save", "path": "n.txt", "content": "b"},
                   {"at": "9s", "device": "A", "op": "airplane.off"}]}
        """.utf8).write(to: file)
        let output = try Synclab.run(["shrink", file.path, "--out", directory.appendingPathComponent("shrunk").path])
        #expect(output.status == status && output.stdout.contains("nothing to shrink"), "\(output.stdout)\(output.stderr)")
    }

    /// SPEC §10: exit 0 when there is no finding. A valid file that passes has nothing to shrink:
    /// a clear line, exit 0 and nothing written (it used to exit 2, as for bad input).
    @Test("synclab shrink on a passing file, or without the anomaly asked for, says so and exits 0")
    func nothingToShrink() throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("shrunk")
        let passing = try Synclab.run(["shrink", "Scenarios/kvs-offline-counter.json", "--out", out.path])
        #expect(passing.status == 0, "\(passing.stdout)\(passing.stderr)")
        #expect(passing.stdout.contains("nothing to shrink: every run (base") && passing.stdout.contains("passes and keeps every promise"))
        #expect(!FileManager.default.fileExists(atPath: out.path))
        let noSuchAnomaly = try Synclab.run(["shrink", "Scenarios/airplane-lost-update.json", "--variant", "merge", "--anomaly", "isolationViolation", "--out", out.path])
        #expect(noSuchAnomaly.status == 0 && noSuchAnomaly.stdout.contains("nothing to shrink: no isolationViolation anomaly in the run (merge)"), "\(noSuchAnomaly.stdout)")
    }

    @Test("--help on fuzz and shrink")
    func help() throws {
        #expect(try Synclab.run(["fuzz", "--help"]).stdout.contains("--shard I/N"))
        #expect(try Synclab.run(["shrink", "--help"]).stdout.contains("--anomaly KIND"))
        #expect(try Synclab.run(["fuzz", "merge", "--help"]).status == 0)
    }

    @Test("synclab shrink on a hand-written scenario gives a smaller file with the same anomaly")
    func shrinkHandWritten() throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("shrunk")
        let output = try Synclab.run(["shrink", "Scenarios/records-offline-fields.json", "--variant", "clientWins", "--anomaly", "lostUpdate", "--out", out.path])
        #expect(output.status == 1, "a failure found and shrunk exits 1, as a fuzz finding does: \(output.stderr)")
        #expect(output.stdout.contains("before: 2 devices, 7 steps"))
        let minimal = try #require(contents(out.appendingPathComponent("minimal.json")))
        let text = String(decoding: minimal, as: UTF8.self)
        #expect(!text.contains("variants") && text.contains("clientWins") && text.contains("\"anomalies\""))
        #expect(try Synclab.run(["run", out.appendingPathComponent("minimal.json").path, "--out", directory.appendingPathComponent("r").path]).status == 0)
    }
}
