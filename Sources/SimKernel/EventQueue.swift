/// A binary min-heap of events keyed on (time, insertion sequence).
///
/// Equal-time events pop in the order they were pushed, as swift-nio's `EmbeddedScheduledTask`
/// orders by `readyTime` then `insertOrder`. Elements are stored inline in one array, so a push
/// or a pop allocates nothing once the array has grown.
///
/// - Complexity: `push` and `pop` are O(log `count`).
public struct EventQueue<Payload> {
    @usableFromInline struct Entry {
        @usableFromInline var time: Int64
        @usableFromInline var sequence: UInt64
        @usableFromInline var payload: Payload
        @inlinable init(time: Int64, sequence: UInt64, payload: Payload) {
            self.time = time; self.sequence = sequence; self.payload = payload
        }
        @inlinable func precedes(_ other: Entry) -> Bool {
            time < other.time || (time == other.time && sequence < other.sequence)
        }
    }

    @usableFromInline var entries: [Entry] = []
    @usableFromInline var nextSequence: UInt64 = 0

    public init() {}

    /// How many events are waiting.
    @inlinable public var count: Int { entries.count }
    @inlinable public var isEmpty: Bool { entries.isEmpty }
    /// The time of the next event, if any.
    @inlinable public var nextTime: SimInstant? { entries.first.map { SimInstant(microseconds: $0.time) } }

    /// Adds an event. Events at equal times run in push order.
    @inlinable public mutating func push(_ payload: Payload, at time: SimInstant) {
        entries.append(Entry(time: time.microseconds, sequence: nextSequence, payload: payload))
        nextSequence &+= 1
        siftUp(entries.count - 1)
    }

    /// Removes and returns the earliest event.
    @inlinable public mutating func pop() -> (time: SimInstant, payload: Payload)? {
        guard !entries.isEmpty else { return nil }
        let last = entries.count - 1
        if last > 0 { entries.swapAt(0, last) }
        let top = entries.removeLast()
        if !entries.isEmpty { siftDown(0) }
        return (SimInstant(microseconds: top.time), top.payload)
    }

    @inlinable mutating func siftUp(_ start: Int) {
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

    @inlinable mutating func siftDown(_ start: Int) {
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

    /// Checks the heap property; for tests.
    public func checkInvariants() -> Bool {
        for index in entries.indices.dropFirst() where entries[index].precedes(entries[(index - 1) >> 1]) { return false }
        return true
    }
}
