import Foundation
import Testing
import SyncLab
import SyncLabTesting

/// `RunResult.defaultReportsFolder` stays under `.build/synclab/` whatever the scenario and
/// variant are called: a name is any text (SPEC §5), so `..` must not climb out.
@Suite("Testing helpers: the default reports folder")
struct DefaultReportsFolderTests {
    @Test("a scenario or variant named .. or .x gets a folder of its own under .build/synclab")
    func dotNamesStayInside() throws {
        let text = """
        {"format": "synclab/1", "name": "..", "devices": [{"id": "A"}],
         "variants": [{"name": ".x"}, {"name": "a / b"}]}
        """
        let results = try Scenario(text: text, path: "dots.json").runAll()
        let root = FileManager.default.currentDirectoryPath + "/.build/synclab/"
        #expect(results.map(\.defaultReportsFolder) == [root + "_../base", root + "_../_.x", root + "_../a___b"])
    }
}
