import Foundation
import Testing
import SyncLabReports

/// Issue 14: every scenario in `Tests/Hostile/` (crashes, escapes, huge values, hostile
/// strings) exits 0, 1 or 2, never by a signal; nothing it prints can drive a terminal or forge
/// a GitHub Actions command; stdout in JSON mode is one JSON document; its reports hold no
/// injected element.
@Suite("The hostile corpus")
struct HostileCorpusTests {
    static var corpus: [String] {
        let folder = Synclab.packageRoot.appendingPathComponent("Tests/Hostile").path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
    }

    @Test("the corpus is there")
    func corpusIsThere() { #expect(Self.corpus.count >= 15) }

    @Test("each hostile scenario exits 0, 1 or 2 with nothing raw on the terminal", arguments: corpus)
    func hostile(name: String) throws {
        let out = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let file = "Tests/Hostile/" + name
        let junit = out.appendingPathComponent("junit.xml")
        // 120 s is a hang guard, far above any corpus run (they take well under a second each).
        let text = try Synclab.run(["run", file, "--out", out.appendingPathComponent("reports").path, "--junit", junit.path],
                                   environment: ["GITHUB_ACTIONS": "true"], timeLimit: 120)
        #expect(!text.signaled, "\(name): killed by signal \(text.status)\(text.timedOut ? " (hung past 120 s)" : "")\n\(text.stderr.prefix(2000))")
        #expect((0...2).contains(text.status), "\(name): exit \(text.status)\n\(text.stderr.prefix(2000))")
        for (stream, output) in [("stdout", text.stdout), ("stderr", text.stderr)] {
            let bad = output.unicodeScalars.first { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) }
            #expect(bad == nil, "\(name): raw U+\(String(bad?.value ?? 0, radix: 16)) on \(stream)")
            for line in output.split(separator: "\n") where line.hasPrefix("::") {
                #expect(line.hasPrefix("::error "), "\(name): \(stream) line that GitHub Actions would obey: \(line.prefix(200))")
            }
        }
        // Every report the run wrote (variant folders too), read back and parsed.
        var checked = 0
        let enumerator = FileManager.default.enumerator(at: out, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard ["timeline.html", "report.md", "junit.xml"].contains(url.lastPathComponent),
                  let page = try? String(contentsOf: url, encoding: .utf8) else { continue }
            checked += 1
            let problems: [String]
            switch url.lastPathComponent {
            case "report.md": problems = InjectionCheck.markdown(page)
            case "junit.xml": problems = InjectionCheck.html(page, elements: InjectionCheck.junitElements)
            default: problems = InjectionCheck.html(page)
            }
            #expect(problems.isEmpty, "\(name): \(url.lastPathComponent) \(problems.prefix(3))")
            // Markdown shows user text verbatim inside code spans (GitHub renders no HTML there):
            // the parsing check above is the one that applies to it.
            for injected in ["<script", "<img", "]]><", "\u{202E}"] where url.lastPathComponent != "report.md" {
                #expect(!page.lowercased().contains(injected), "\(name): \(url.lastPathComponent) holds \(injected)")
            }
        }
        // A file that validates writes its reports; only a bad file (exit 2) writes none.
        #expect(checked > 0 || text.status == 2, "\(name): no report written")
        let json = try Synclab.run(["run", file, "--out", out.appendingPathComponent("json").path, "--format", "json"], environment: ["GITHUB_ACTIONS": "true"], timeLimit: 120)
        #expect(json.status == text.status)
        if json.status != 2 || !json.stdout.isEmpty {
            let parsed = try? JSONSerialization.jsonObject(with: Data(json.stdout.utf8))
            #expect(parsed is [String: Any], "\(name): stdout is not one JSON document: \(json.stdout.prefix(300))")
        }
    }

    @Test("--out \"\", an --out that is a file, and a --junit that is a folder are usage errors before anything runs")
    func outputPaths() throws {
        let folder = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = "Scenarios/airplane-lost-update.json"
        let empty = try Synclab.run(["run", scenario, "--out", ""])
        #expect(empty.status == 2 && empty.stderr.contains("--out needs a folder name") && !empty.stdout.contains("PASS"))
        let file = try Synclab.run(["run", scenario, "--out", "/dev/null"])
        #expect(file.status == 2 && file.stderr.contains("/dev/null exists and is not a folder") && !file.stdout.contains("PASS"))
        let junit = try Synclab.run(["run", scenario, "--out", folder.path, "--junit", folder.path])
        #expect(junit.status == 2 && junit.stderr.contains("is a folder") && !junit.stdout.contains("PASS"))
        #expect(!junit.stderr.contains("NSCocoaErrorDomain"))
    }

    @Test("a file named ...json cannot put its reports outside the output folder")
    func dotsStem() throws {
        let folder = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenarios = folder.appendingPathComponent("in"), out = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
        let text = #"{"format": "synclab/1", "name": "dots", "devices": [{"id": "A"}], "steps": []}"#
        try text.write(to: scenarios.appendingPathComponent("...json"), atomically: true, encoding: .utf8)
        try text.write(to: scenarios.appendingPathComponent("ok.json"), atomically: true, encoding: .utf8)
        // Named as arguments: in a folder argument a hidden file is skipped (`ScenarioFiles`).
        let result = try Synclab.run(["run", scenarios.appendingPathComponent("...json").path, scenarios.appendingPathComponent("ok.json").path, "--out", out.path])
        #expect(result.status == 2 && result.stderr.contains("would leave the output folder"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("result.json").path))
    }
}
