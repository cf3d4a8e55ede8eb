/// A binary min-heap of events keyed on (time, insertion sequence).
///
/// Equal-time events pop in the order they were pushed, as swift-nio's `EmbeddedScheduledTask`
/// orders by `readyTime` then `insertOrder`. The heap itself holds only 24-byte plain entries
/// (time, sequence, slot); payloads wait in a slab indexed by slot, so sifting moves no payload
/// and retains nothing, and steady state allocates nothing.
///
/// - Complexity: `push` and `pop` are O(log `count`).
public struct EventQueue<Payload> {
    @usableFromInline struct Entry {
        @usableFromInline var time: Int64
        @usableFromInline var sequence: UInt64
        @usableFromInline var slot: Int32
        @inlinable init(time: Int64, sequence: UInt64, slot: Int32) {
            self.time = time; self.sequence = sequence; self.slot = slot
        }
        @inlinable func precedes(_ other: Entry) -> Bool {
            time < other.time || (time == other.time && sequence < other.sequence)
        }
    }

    @usableFromInline var entries: [Entry] = []
    /// Payloads by slot; nil for a free slot.
    @usableFromInline var payloads: [Payload?] = []
    @usableFromInline var freeSlots: [Int32] = []
    @usableFromInline var nextSequence: UInt64 = 0

    public init() {}

    /// How many events are waiting.
    @inlinable public var count: Int { entries.count }
    @inlinable public var isEmpty: Bool { entries.isEmpty }
    /// The time of the next event, if any.
    @inlinable public var nextTime: SimInstant? { entries.first.map { SimInstant(microseconds: $0.time) } }

    /// Adds an event. Events at equal times run in push order.
    @inlinable public mutating func push(_ payload: consuming Payload, at time: SimInstant) {
        let sequence = nextSequence
        nextSequence &+= 1
        insert(payload, at: time, sequence: sequence)
    }

    /// Takes the place in push order that a push now would take, without pushing anything:
    /// `push(_:at:sequence:)` with it later puts an event exactly where pushing it now would have.
    /// For events that are usually never needed (a request's timeout, when its answer comes first).
    @inlinable public mutating func reserveSequence() -> UInt64 {
        defer { nextSequence &+= 1 }
        return nextSequence
    }

    /// Adds an event at a place in push order taken earlier by `reserveSequence()`. The caller
    /// must push it before an event after it would pop (while `time` is later than the event
    /// being handled, or equal with a later sequence): then no run can tell it from one pushed
    /// at the reservation.
    @inlinable public mutating func push(_ payload: consuming Payload, at time: SimInstant, sequence: UInt64) {
        precondition(sequence < nextSequence, "a sequence number is reserved before it is used")
        insert(payload, at: time, sequence: sequence)
    }

    /// `payload` is consumed (moved into the slab): borrowed, it was copied in, a retain of its
    /// box at every push and a release when the caller's temporary died.
    @inlinable mutating func insert(_ payload: consuming Payload, at time: SimInstant, sequence: UInt64) {
        let slot: Int32
        if let free = freeSlots.popLast() {
            slot = free
            payloads[Int(free)] = payload
        } else {
            slot = Int32(payloads.count)
            payloads.append(payload)
        }
        entries.append(Entry(time: time.microseconds, sequence: sequence, slot: slot))
        siftUp(entries.count - 1)
    }

    /// Removes and returns the earliest event.
    @inlinable public mutating func pop() -> (time: SimInstant, payload: Payload)? {
        guard let top = entries.first else { return nil }
        let last = entries.removeLast()
        if !entries.isEmpty {
            entries[0] = last
            siftDown(0)
        }
        let slot = Int(top.slot)
        // Moved out of the slab (leaving nil), not copied: a copy retained the payload's
        // references only for clearing the slot to release them again, at every event.
        let payload = payloads[slot].take().unsafelyUnwrapped
        freeSlots.append(top.slot)
        return (SimInstant(microseconds: top.time), payload)
    }

    @inlinable mutating func siftUp(_ start: Int) {
        entries.withUnsafeMutableBufferPointer { entries in
            var child = start
            let element = entries[child]
            while child > 0 {
                let parent = (child - 1) >> 1
                guard element.precedes(entries[parent]) else { break }
                entries[child] = entries[parent]
                child = parent
            }
            entries[child] = element
        }
    }

    @inlinable mutating func siftDown(_ start: Int) {
        // Every event pops through this walk and most push through siftUp: one uniqueness check
        // per walk, and indexes the loop has just bounded, instead of checks at each step.
        entries.withUnsafeMutableBufferPointer { entries in
            let count = entries.count
            var parent = start
            let element = entries[parent]
            while true {
                let left = 2 * parent + 1
                if left >= count { break }
                let right = left + 1
                var best = left
                if right < count && entries[right].precedes(entries[left]) { best = right }
                guard entries[best].precedes(element) else { break }
                entries[parent] = entries[best]
                parent = best
            }
            entries[parent] = element
        }
    }

    /// How many waiting events satisfy `predicate` (in no particular order); for tests and diagnostics.
    public func countPending(where predicate: (Payload) -> Bool) -> Int {
        entries.reduce(0) { $0 + (predicate(payloads[Int($1.slot)].unsafelyUnwrapped) ? 1 : 0) }
    }

    /// Checks the heap property and the slab's bookkeeping; for tests.
    public func checkInvariants() -> Bool {
        for index in entries.indices.dropFirst() where entries[index].precedes(entries[(index - 1) >> 1]) { return false }
        let live = payloads.reduce(0) { $0 + ($1 == nil ? 0 : 1) }
        return live == entries.count && live + freeSlots.count == payloads.count
    }
}
