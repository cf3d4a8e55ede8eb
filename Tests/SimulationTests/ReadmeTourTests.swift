import Foundation
import Testing

/// The README's one-minute tour stays true: its scenario, run as the README says, prints exactly
/// the output shown there and exits 1.
@Suite("The README tour")
struct ReadmeTourTests {
    @Test func theTourScenarioPrintsWhatTheReadmeShows() throws {
        let readme = ReferenceDoc.load("README.md")
        let blocks = readme.section("A one-minute tour").joined(separator: "\n").components(separatedBy: "```")
        // [prose, "json\nFILE", prose, "console\n$ COMMAND\nOUTPUT", prose]
        try #require(blocks.count >= 5)
        let scenario = String(blocks[1].drop { $0 != "\n" }.dropFirst())
        let console = blocks[3].split(separator: "\n", omittingEmptySubsequences: false).dropFirst().map(String.init)
        try #require(console.first == "$ swift run synclab run coffee.json")
        let shown = console.dropFirst().filter { !$0.isEmpty }

        let directory = try Synclab.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try scenario.write(to: directory.appendingPathComponent("coffee.json"), atomically: true, encoding: .utf8)
        // Not as a GitHub Actions step would: annotations would add lines the README does not show.
        let output = try Synclab.run(["run", "coffee.json"], in: directory, environment: ["GITHUB_ACTIONS": "false"])
        #expect(output.status == 1)
        #expect(output.stdout.split(separator: "\n").map(String.init) == Array(shown))
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("Reports/coffee/timeline.html").path))
    }
}
