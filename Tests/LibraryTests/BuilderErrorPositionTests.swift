import Testing
import SyncLab

/// A builder's (and `World(devices:)`'s) problems were printed `(builder):1:75: devices[1].id: …`:
/// line 1, column 75 of a one-line text the builder wrote and the caller never sees.
@Suite("ScenarioBuilder problems name the JSON path, not a place in text nobody wrote")
struct BuilderErrorPositionTests {
    @Test("a duplicate device in a builder and in World(devices:) has no line or column")
    func noPosition() throws {
        var builder = ScenarioBuilder(name: "x")
        builder.device("A")
        builder.device("A")
        builder.step(at: "1s", device: "A", op: "kvs.set", ["key": "k"])
        do {
            _ = try Scenario(builder)
            Issue.record("a duplicate device must be refused")
        } catch {
            #expect(error.problems.count == 2, "\(error)")
            #expect(error.problems.allSatisfy { $0.file == "(builder)" && $0.line == nil && $0.column == nil }, "\(error)")
            #expect(error.description.hasPrefix("(builder): devices[1].id: duplicate device id \"A\""), "\(error)")
        }
        do {
            _ = try World(devices: ["A", "A"])
            Issue.record("a duplicate device must be refused")
        } catch {
            #expect(error.description == "(builder): devices[1].id: duplicate device id \"A\" (first declared at devices[0])", "\(error)")
        }
    }
}
