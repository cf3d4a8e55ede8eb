import Foundation
import Testing

@Suite("The synclab command line", .serialized)
struct CommandLineTests {
    func write(_ text: String, named name: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test("bad input exits 2 with the file, the position and the JSON path, and runs nothing", arguments: [
        ("invalid.json", "{\"format\": \"synclab/1\", \"name\": }", "invalid.json:1:"),
        ("empty.json", "", "empty.json"),
        ("missing-format.json", "{\"name\": \"x\", \"devices\": [{\"id\": \"A\"}], \"steps\": []}", "format"),
        ("unknown-op.json", "{\"format\": \"synclab/1\", \"name\": \"x\", \"devices\": [{\"id\": \"A\"}], \"steps\": [{\"at\": \"1s\", \"device\": \"A\", \"op\": \"kvs.sett\", \"key\": \"k\", \"value\": 1}]}", "steps[0].op"),
        ("unknown-device.json", "{\"format\": \"synclab/1\", \"name\": \"x\", \"devices\": [{\"id\": \"A\"}], \"steps\": [{\"at\": \"1s\", \"device\": \"Z\", \"op\": \"airplane.on\"}]}", "steps[0].device"),
        ("negative-time.json", "{\"format\": \"synclab/1\", \"name\": \"x\", \"devices\": [{\"id\": \"A\"}], \"steps\": [{\"at\": \"-1s\", \"device\": \"A\", \"op\": \"airplane.on\"}]}", "steps[0].at"),
        ("negative-limit.json", "{\"format\": \"synclab/1\", \"name\": \"x\", \"limits\": {\"kvs\": {\"keys\": -1}}, \"devices\": [{\"id\": \"A\"}], \"steps\": []}", "limits.kvs.keys"),
        ("duplicate-device.json", "{\"format\": \"synclab/1\", \"name\": \"x\", \"devices\": [{\"id\": \"A\"}, {\"id\": \"A\"}], \"steps\": []}", "devices[1].id"),
    ] as [(String, String, String)])
    func badInputExitsTwo(name: String, text: String, mentions: String) throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try write(text, named: name, in: directory)
        let output = try Synclab.run(["run", path, "--out", directory.appendingPathComponent("out").path])
        #expect(output.status == 2)
        #expect(output.stderr.contains(mentions), "stderr was: \(output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out").path), "a bad file must not run")
        let validate = try Synclab.run(["validate", path])
        #expect(validate.status == 2)
    }

    @Test("a binary file is bad input, not a crash")
    func binaryFile() throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("binary.json")
        try Data([0xFF, 0xFE, 0x00, 0x01, 0x80, 0x81]).write(to: url)
        let output = try Synclab.run(["validate", url.path])
        #expect(output.status == 2)
        #expect(output.stderr.contains("binary.json"))
    }

    @Test("every error in a file is reported, not just the first")
    func allErrorsReported() throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try write("""
        {"format": "synclab/1", "name": "x", "devices": [{"id": "A"}],
         "steps": [{"at": "fast", "device": "A", "op": "airplane.on"},
                   {"at": "1s", "device": "Q", "op": "airplane.on"}]}
        """, named: "two-errors.json", in: directory)
        let output = try Synclab.run(["validate", path])
        #expect(output.status == 2)
        #expect(output.stderr.contains("steps[0].at"))
        #expect(output.stderr.contains("steps[1].device"))
    }

    @Test("usage mistakes exit 2 and every command has --help")
    func usage() throws {
        #expect(try Synclab.run(["frobnicate"]).status == 2)
        #expect(try Synclab.run(["run", "--nope", "x.json"]).status == 2)
        for command in ["run", "validate", "bench"] {
            let help = try Synclab.run([command, "--help"])
            #expect(help.status == 0)
            #expect(help.stdout.contains("usage: synclab \(command)"))
        }
    }

    @Test("the main scenario passes and exits 0, printing each variant's verdict")
    func mainScenarioPasses() throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try Synclab.run(["run", "Scenarios/airplane-lost-update.json", "--out", directory.path])
        #expect(output.status == 0, "stdout: \(output.stdout)\nstderr: \(output.stderr)")
        for variant in ["base", "keepVersions", "keepBoth", "merge"] {
            #expect(output.stdout.contains("[\(variant)]"))
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("\(variant)/result.json").path))
        }
        #expect(output.stdout.contains("lostUpdate"))
    }

    /// A usage error runs nothing and leaves nothing: an unknown --variant used to be checked
    /// after the output folder was made, so it left an empty `Reports/<stem>/` behind.
    @Test("an unknown --variant exits 2 and makes no output folder")
    func unknownVariantMakesNoFolder() throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out").path
        let output = try Synclab.run(["run", "Scenarios/airplane-lost-update.json", "--variant", "nope", "--out", out])
        #expect(output.status == 2)
        #expect(output.stderr.contains("no variant named \"nope\" (it has: base, keepVersions, keepBoth, merge)"), "\(output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("--format json prints one document with a result per variant")
    func jsonFormat() throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try Synclab.run(["run", "Scenarios/airplane-lost-update.json", "--out", directory.path, "--format", "json"])
        let object = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any]
        let results = object?["results"] as? [[String: Any]]
        #expect(results?.count == 4)
        #expect(results?.first?["variant"] as? String == "base")
        #expect(results?.first?["file"] as? String == "Scenarios/airplane-lost-update.json")
    }

    /// A small valid scenario: two devices, one KVS write each.
    static func validScenario(seed: String = "5", variants: String = "[]") -> String {
        """
        {"format": "synclab/1", "name": "tiny", "seed": \(seed), "devices": [{"id": "A"}, {"id": "B"}],
         "steps": [{"at": "1s", "device": "A", "op": "kvs.set", "key": "k", "value": 1},
                   {"at": "2s", "device": "B", "op": "kvs.set", "key": "k", "value": 2}],
         "expect": {"converged": true}, "variants": \(variants)}
        """
    }

    /// A user re-running a file after removing a variant sees its old folder go, said in the
    /// summary; it used to stay, and `synclab report OUT` compared it again.
    @Test("re-running a file whose variant was removed removes that variant's folder and says so")
    func aRemovedVariantsReportsGo() throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out").path
        let two = #"[{"name": "fast", "network": {"latency": "10ms"}}, {"name": "slow", "network": {"latency": "2s"}}]"#
        _ = try write(Self.validScenario(variants: two), named: "tiny.json", in: directory)
        let first = try Synclab.run(["run", directory.appendingPathComponent("tiny.json").path, "--out", out])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(FileManager.default.fileExists(atPath: out + "/slow/result.json"))
        let path = try write(Self.validScenario(variants: #"[{"name": "fast", "network": {"latency": "10ms"}}]"#), named: "tiny.json", in: directory)
        let second = try Synclab.run(["run", path, "--out", out])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("removed: \(out)/slow/"), "\(second.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["base", "fast", "report.md", "timeline.html"])
    }

    /// The `"seed"` and `"traceDigest"` members of a saved result.json.
    func seedAndDigest(_ path: String) throws -> (seed: String, digest: String) {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        func member(_ key: String) -> String {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("  \"\(key)\": ") }) else { return "" }
            return String(line.dropFirst("  \"\(key)\": ".count).dropLast())
        }
        return (member("seed"), member("traceDigest"))
    }

    @Test("a seed of 2^63 or more is recorded unsigned, and the recorded seed replays the run", arguments: ["9223372036854775808", "18446744073709551615"])
    func largeSeedsReplay(seed: String) throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try write(Self.validScenario(), named: "tiny.json", in: directory)
        let first = try Synclab.run(["run", path, "--seed", seed, "--out", directory.appendingPathComponent("one").path])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("seed=\(seed)"))
        let recorded = try seedAndDigest(directory.appendingPathComponent("one/result.json").path)
        #expect(recorded.seed == seed)
        let trace = try String(contentsOfFile: directory.appendingPathComponent("one/trace.jsonl").path, encoding: .utf8)
        #expect(trace.prefix { $0 != "\n" }.contains("\"seed\":\(seed)"))
        // Fed back, on the command line and in a scenario file, the seed gives the same trace.
        let again = try Synclab.run(["run", path, "--seed", recorded.seed, "--out", directory.appendingPathComponent("two").path])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try seedAndDigest(directory.appendingPathComponent("two/result.json").path).digest == recorded.digest)
        let inFile = try write(Self.validScenario(seed: recorded.seed), named: "tiny-seeded.json", in: directory)
        let fromFile = try Synclab.run(["run", inFile, "--out", directory.appendingPathComponent("three").path])
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        #expect(try seedAndDigest(directory.appendingPathComponent("three/result.json").path) == recorded)
    }

    @Test("two files with one stem are a usage error naming both and the folder, and nothing runs")
    func sameStemIsAUsageError() throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for folder in ["a", "b"] { try FileManager.default.createDirectory(at: directory.appendingPathComponent(folder), withIntermediateDirectories: true) }
        let first = try write(Self.validScenario(), named: "a/same.json", in: directory)
        let second = try write(Self.validScenario(), named: "b/same.json5", in: directory)
        let out = directory.appendingPathComponent("out").path
        let output = try Synclab.run(["run", first, second, "--out", out])
        #expect(output.status == 2)
        #expect(output.stderr.contains("\(first) and \(second) would both write their reports to \(out)/same/"), "\(output.stderr)")
        #expect(output.stderr.contains("run them separately"))
        #expect(!FileManager.default.fileExists(atPath: out))
        // Case alone does not keep two folders apart on macOS: refused too.
        let upper = try write(Self.validScenario(), named: "b/Same.json", in: directory)
        let cased = try Synclab.run(["run", first, upper, "--out", out])
        #expect(cased.status == 2)
        #expect(cased.stderr.contains("differ only in case"), "\(cased.stderr)")
        // One file named twice runs once.
        let twice = try Synclab.run(["run", first, first, "--out", out, "--format", "json"])
        #expect(twice.status == 0, "\(twice.stderr)")
        #expect(twice.stdout.components(separatedBy: "\"variant\": \"base\"").count == 2)
    }

    @Test("with one bad file among several, its errors are shown and annotated, the others run, JUnit has it in error, and the exit is 2")
    func aBadFileDoesNotStopTheOthers() throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = try write(Self.validScenario(), named: "good.json", in: directory)
        let bad = try write("""
        {"format": "synclab/1", "name": "bad", "devices": [{"id": "A"}],
         "steps": [{"at": "1s", "device": "Q", "op": "airplane.on"}]}
        """, named: "bad, really.json", in: directory)
        let out = directory.appendingPathComponent("out").path, junit = directory.appendingPathComponent("junit.xml").path
        let output = try Synclab.run(["run", bad, good, "--out", out, "--junit", junit], environment: ["GITHUB_ACTIONS": "true"])
        #expect(output.status == 2)
        #expect(output.stderr.contains("\(bad):2:35: steps[0].device: unknown device"), "\(output.stderr)")
        let escapedBad = bad.replacingOccurrences(of: ",", with: "%2C")
        #expect(output.stdout.contains("::error file=\(escapedBad),line=2,col=35,title=invalid scenario::steps[0].device: unknown device"), "\(output.stdout)")
        #expect(output.stdout.contains("PASS  tiny [base]"))
        #expect(FileManager.default.fileExists(atPath: out + "/good/result.json"))
        #expect(!FileManager.default.fileExists(atPath: out + "/bad, really"))
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("tests=\"2\" failures=\"0\" errors=\"1\""), "\(xml)")
        #expect(xml.contains("name=\"validation\""))
        // validate annotates the same way.
        let validate = try Synclab.run(["validate", bad], environment: ["GITHUB_ACTIONS": "true"])
        #expect(validate.status == 2)
        #expect(validate.stdout.contains("::error file=\(escapedBad),line=2,col=35,"))
    }

    @Test("an expectation's annotation escapes newlines and the separators in its properties")
    func expectationAnnotationsAreEscaped() throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try write(Self.validScenario().replacingOccurrences(of: "\"converged\": true", with: "\"lostUpdates\": 5")
            .replacingOccurrences(of: "\"tiny\"", with: "\"a: b,\\nc\""), named: "fails.json", in: directory)
        let output = try Synclab.run(["run", path, "--out", directory.appendingPathComponent("out").path], environment: ["GITHUB_ACTIONS": "true"])
        #expect(output.status == 1)
        #expect(output.stdout.contains(",title=a%3A b%2C%0Ac [base]::lostUpdates: wanted 5, got 1"), "\(output.stdout)")
    }

    @Test("synclab report refuses a trace.jsonl from another run than the result.json, with exit 2")
    func reportRefusesMismatchedFiles() throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try write(Self.validScenario(), named: "tiny.json", in: directory)
        let one = directory.appendingPathComponent("one").path, two = directory.appendingPathComponent("two").path
        #expect(try Synclab.run(["run", path, "--out", one, "--seed", "1"]).status == 0)
        #expect(try Synclab.run(["run", path, "--out", two, "--seed", "2"]).status == 0)
        try FileManager.default.removeItem(atPath: one + "/trace.jsonl")
        try FileManager.default.copyItem(atPath: two + "/trace.jsonl", toPath: one + "/trace.jsonl")
        let output = try Synclab.run(["report", one + "/result.json"])
        #expect(output.status == 2)
        #expect(output.stderr.contains("come from different runs"), "\(output.stderr)")
        #expect(try Synclab.run(["report", two + "/result.json"]).status == 0)
    }

    @Test("--variant given twice, or a flag given a value, is a usage error that runs nothing", arguments: [
        ["--variant", "base", "--variant", "keepBoth"], ["--variant=base", "--variant", "base"], ["--quiet=false"],
    ])
    func repeatedOptionsAreRefused(options: [String]) throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out")
        // Before: the last --variant silently won (one variant ran), and --quiet=false was --quiet.
        // (Other options keep "the last one wins": FuzzCommandTests overrides --jobs so.)
        let output = try Synclab.run(["run", "Scenarios/airplane-lost-update.json", "--out", out.path] + options)
        #expect(output.status == 2, "stdout: \(output.stdout)\nstderr: \(output.stderr)")
        #expect(output.stderr.contains(options[0].split(separator: "=")[0]), "\(output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test("--junit naming a scenario file or a report, and reports landing on a scenario file, are refused before anything runs")
    func outputsNeverOverwriteInputs() throws {
        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = try String(contentsOfFile: Synclab.packageRoot.appendingPathComponent("Scenarios/app-delete-discards-pending.json").path, encoding: .utf8)
        let scenario = try write(text, named: "discards.json", in: directory)
        let out = directory.appendingPathComponent("out").path
        // The scenario file itself as --junit: it used to be replaced by the JUnit XML (exit 0).
        let overInput = try Synclab.run(["run", scenario, "--out", out, "--junit", scenario])
        #expect(overInput.status == 2, "\(overInput.stderr)")
        #expect(overInput.stderr.contains("is the scenario file"), "\(overInput.stderr)")
        #expect(try String(contentsOfFile: scenario, encoding: .utf8) == text)
        // A report of the run as --junit: result.json used to end up holding the XML.
        let overReport = try Synclab.run(["run", scenario, "--out", out, "--junit", out + "/./result.json"])
        #expect(overReport.status == 2, "\(overReport.stderr)")
        #expect(overReport.stderr.contains("is a report this run writes"), "\(overReport.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out + "/result.json"))
        // A scenario called result.json run with --out its own folder: its result replaced it.
        let named = try write(text, named: "result.json", in: directory)
        let overScenario = try Synclab.run(["run", "result.json", "--out", "."], in: directory)
        #expect(overScenario.status == 2, "\(overScenario.stderr)")
        #expect(overScenario.stderr.contains("would overwrite the scenario file result.json"), "\(overScenario.stderr)")
        #expect(try String(contentsOfFile: named, encoding: .utf8) == text)
        // With variants the runs' files go into variant folders: a report there is refused too.
        let variants = try String(contentsOfFile: Synclab.packageRoot.appendingPathComponent("Scenarios/kvs-clock-skew.json").path, encoding: .utf8)
        let skew = try write(variants, named: "skew.json", in: directory)
        let overVariant = try Synclab.run(["run", skew, "--out", out, "--junit", out + "/base/result.json"])
        #expect(overVariant.status == 2, "\(overVariant.stderr)")
        #expect(overVariant.stderr.contains("is a report this run writes"), "\(overVariant.stderr)")
    }
}
