import Testing
@testable import SyncLabScenario

/// A device called `cloud` is refused at validation: the trace names the cloud's own events
/// `"device": "cloud"` and the timeline gives the cloud a lane of that name, so its lines and
/// the cloud's could not be told apart (it used to be accepted and run).
@Suite("Reserved device names")
struct ReservedDeviceNameTests {
    @Test func aDeviceCalledCloudIsAnErrorAtItsIDOnly() {
        let errors = Load.errors(Load.scenario(#"""
        "steps": [{"at": "0s", "device": "cloud", "op": "kvs.set", "key": "k", "value": 1}]
        """#, devices: #"[{"id": "A"}, {"id": "cloud"}]"#))
        #expect(errors.map(\.path) == ["devices[1].id"], "\(Load.describe(errors))")
        #expect(errors.first?.message.hasPrefix(#""cloud" names the cloud in the trace"#) == true)
    }

    @Test func otherSpellingsStayDeviceNames() {
        #expect(Load.file(Load.scenario("", devices: #"[{"id": "Cloud"}, {"id": "cloud2"}]"#)) != nil)
    }
}
