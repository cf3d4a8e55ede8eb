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
}
