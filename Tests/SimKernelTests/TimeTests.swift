import Testing
@testable import SyncLabKernel

@Suite("Virtual time")
struct TimeTests {
    @Test("durations render with the largest exact unit")
    func durationDescription() {
        #expect(SimDuration.seconds(90).description == "90s")
        #expect(SimDuration.minutes(2).description == "2m")
        #expect(SimDuration.milliseconds(1500).description == "1.5s")
        #expect(SimDuration.milliseconds(250).description == "250ms")
        #expect(SimDuration(microseconds: -30_000_000).description == "-30s")
        #expect(SimDuration(microseconds: 7).description == "7us")
    }

    @Test("instants and durations combine without mixing types")
    func arithmetic() {
        let start = SimInstant(microseconds: 1_000)
        #expect((start + .milliseconds(2)).microseconds == 3_000)
        #expect((start + .milliseconds(2)) - start == .milliseconds(2))
    }
}
