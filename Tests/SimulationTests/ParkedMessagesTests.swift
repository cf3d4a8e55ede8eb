import Testing
@testable import SyncLabSimulation

/// The slots that requests and responses wait in between their send and their arrival event.
@Suite("Parked messages")
struct ParkedMessagesTests {
    @Test("each message comes out of its slot once, as parked, and a taken slot is reused")
    func slotsAreTakenOnceAndReused() {
        var parked = ParkedMessages<String>()
        let first = parked.park("first")
        let second = parked.park("second")
        #expect(first != second)
        #expect(parked.take(second) == "second")
        // The freed slot is the next one handed out: the slots stay as many as the messages
        // in flight at once, not one per message ever sent.
        let third = parked.park("third")
        #expect(third == second)
        #expect(parked.take(first) == "first")
        #expect(parked.take(third) == "third")
        let fourth = parked.park("fourth")
        #expect(fourth == first || fourth == second)
        #expect(parked.take(fourth) == "fourth")
    }
}
