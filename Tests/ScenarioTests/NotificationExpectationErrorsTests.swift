import Testing
@testable import SyncLabScenario

/// SPEC §5: all errors in a file are reported together, also inside one
/// `expect.notifications` entry: an unknown device used to hide an unknown reason, and an
/// unknown reason an empty min/max range.
@Suite("Every error of a notification expectation")
struct NotificationExpectationErrorsTests {
    @Test func aBadDeviceDoesNotHideABadReason() {
        let errors = Load.errors(Load.scenario(#""expect": {"notifications": [{"device": "Q", "reason": "bogus"}]}"#))
        #expect(errors.map(\.path) == ["expect.notifications[0].device", "expect.notifications[0].reason"], "\(Load.describe(errors))")
    }

    @Test func aBadReasonDoesNotHideAnEmptyRange() {
        let errors = Load.errors(Load.scenario(#""expect": {"notifications": [{"device": "A", "reason": "bogus", "min": 3, "max": 1}]}"#))
        // Errors come in file order: the entry's own position (the range) before its reason.
        #expect(errors.map(\.path) == ["expect.notifications[0]", "expect.notifications[0].reason"], "\(Load.describe(errors))")
        #expect(errors.first?.message.contains("\"min\" (3) is greater than \"max\" (1)") == true)
    }

    @Test func aGoodEntryStillLoads() {
        let file = Load.file(Load.scenario(#""expect": {"notifications": [{"device": "A", "reason": "serverChange", "min": 1, "max": 2}]}"#))
        #expect(file != nil)
    }
}
