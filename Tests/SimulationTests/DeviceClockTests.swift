import Testing
import SyncLabKernel
@testable import SyncLabSimulation

@Suite("Device clocks")
struct DeviceClockTests {
    @Test("an offset clock reads true time plus the offset")
    func offset() {
        let clock = DeviceClock(offset: .seconds(-2), driftPpm: 0)
        #expect(clock.reading(at: SimInstant(microseconds: 30_000_000)).microseconds == 28_000_000)
    }

    @Test("drift accumulates with true time: 100 ppm is 360 ms an hour")
    func drift() {
        let clock = DeviceClock(offset: .zero, driftPpm: 100)
        #expect(clock.reading(at: SimInstant(microseconds: 3_600_000_000)).microseconds == 3_600_360_000)
        #expect(clock.error(at: SimInstant(microseconds: 3_600_000_000)) == .milliseconds(360))
    }

    @Test("a backwards jump makes the clock read earlier than before")
    func backwardsJump() {
        var clock = DeviceClock(offset: .zero, driftPpm: 0)
        let before = clock.reading(at: SimInstant(microseconds: 10_000_000))
        clock.offset = clock.offset + SimDuration.seconds(-60) // clock.jump by -60s
        let after = clock.reading(at: SimInstant(microseconds: 11_000_000))
        #expect(after < before)
        #expect(after.microseconds == -49_000_000)
    }
}
