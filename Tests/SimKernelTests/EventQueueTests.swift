import Testing
@testable import SyncLabKernel

@Suite("Event queue")
struct EventQueueTests {
    @Test("events pop in time order")
    func popsInTimeOrder() {
        var queue = EventQueue<Int>()
        for (value, time) in [(1, 30), (2, 10), (3, 20), (4, 5)] { queue.push(value, at: SimInstant(microseconds: Int64(time))) }
        var popped: [Int] = []
        while let (_, value) = queue.pop() { popped.append(value) }
        #expect(popped == [4, 2, 3, 1])
    }

    @Test("events at equal times pop in insertion order")
    func equalTimesKeepInsertionOrder() {
        var queue = EventQueue<Int>()
        for value in 0..<100 { queue.push(value, at: SimInstant(microseconds: 7)) }
        queue.push(-1, at: SimInstant(microseconds: 6))
        var popped: [Int] = []
        while let (_, value) = queue.pop() { popped.append(value) }
        #expect(popped == [-1] + Array(0..<100))
    }

    @Test("the heap property holds through random pushes and pops", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func heapInvariantUnderRandomOps(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var queue = EventQueue<UInt64>()
        var reference: [(Int64, UInt64)] = []
        var sequence: UInt64 = 0
        for _ in 0..<2_000 {
            if random.next() % 3 != 0 || reference.isEmpty {
                let time = Int64(random.next() % 50)
                queue.push(sequence, at: SimInstant(microseconds: time))
                reference.append((time, sequence)); sequence += 1
            } else {
                reference.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
                let expected = reference.removeFirst()
                let popped = queue.pop()
                #expect(popped?.payload == expected.1)
                #expect(popped?.time.microseconds == expected.0)
            }
            #expect(queue.checkInvariants())
        }
    }
}

@Suite("Event queue: reserved places")
struct EventQueueReservedPlaceTests {
    @Test("an event pushed at a reserved place pops exactly where a push at the reservation would have")
    func reservedPlaceKeepsPushOrder() {
        // Events 0…9 at equal and differing times; the reserved one (value 100) is pushed last,
        // after pops and later pushes, and must still come between 4 and 5 at its time.
        var reserved = EventQueue<Int>()
        var plain = EventQueue<Int>()
        let times: [Int64] = [3, 7, 7, 2, 7, 7, 9, 7, 1, 7]
        for value in 0..<5 { reserved.push(value, at: SimInstant(microseconds: times[value])); plain.push(value, at: SimInstant(microseconds: times[value])) }
        let place = reserved.reserveSequence()
        plain.push(100, at: SimInstant(microseconds: 7))
        for value in 5..<10 { reserved.push(value, at: SimInstant(microseconds: times[value])); plain.push(value, at: SimInstant(microseconds: times[value])) }
        var poppedReserved: [Int] = []
        var poppedPlain: [Int] = []
        // Pop what is due before time 7 first, then push the reserved event: it is not yet due.
        while let time = reserved.nextTime, time.microseconds < 7, let (_, value) = reserved.pop() { poppedReserved.append(value) }
        reserved.push(100, at: SimInstant(microseconds: 7), sequence: place)
        while let (_, value) = reserved.pop() { poppedReserved.append(value) }
        while let (_, value) = plain.pop() { poppedPlain.append(value) }
        #expect(poppedReserved == poppedPlain)
        #expect(poppedPlain == [8, 3, 0, 1, 2, 4, 100, 5, 7, 9, 6])
        #expect(reserved.checkInvariants())
    }
}
