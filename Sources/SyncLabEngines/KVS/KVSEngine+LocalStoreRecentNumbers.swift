extension KVSEngine.LocalStore {
    /// The numbers of the last `capacity` keys whose value a fetched change changed, in the order
    /// applied (a ring; a key applied again right after itself is kept once), with how many were
    /// ever pushed. (`set(_:for:)` pushes any value it sets; it is not the fetch's path.)
    ///
    /// Why those keys: a hosted app told of a fetch reads the notification's keys, which are
    /// exactly the keys whose value the fetch changed, in the order applied (UTF-8 order): the
    /// app finds the `n` keys it is told of as the last `n` pushed. A change to the value a key
    /// already shows (another write of it) is applied but not notified, so not pushed: the
    /// bench's writers often write the value a key shows. Why eight, not two: with the last two only, the
    /// first keys of a notification of three or more were hashed in the store's name table, at
    /// 1,000 devices a cache miss each: about a quarter of an observer's reads, 6% of
    /// `bench --hosted` (docs/HOSTING.md "What hosting costs", eleventh round). At 1,000 devices
    /// 99% of the keys read are in notifications of at most eight keys.
    struct RecentNumbers {
        /// How many numbers the ring keeps.
        static let capacity: UInt32 = 8
        /// Slot `pushed % capacity` is the next written (`UInt32.max`: none yet). A SIMD vector,
        /// not a tuple: indexed by a variable without being copied to memory first.
        private var ring = SIMD8<UInt32>(repeating: .max)
        /// How many numbers were pushed (wrapping: the slots are taken modulo the capacity, a power of two).
        private(set) var pushed: UInt32 = 0

        /// The number pushed `back` pushes ago (1: the newest); `UInt32.max` when none is kept
        /// there (`back` is 0, beyond the capacity, or beyond what was pushed).
        @inline(__always) func number(back: UInt32) -> UInt32 {
            // Slots never written hold `UInt32.max`, so a `back` beyond what was pushed finds none.
            guard back &- 1 < Self.capacity else { return .max }
            return ring[Int((pushed &- back) % Self.capacity)]
        }

        /// The newest number, then the one before it (`UInt32.max`: none).
        var lastTwo: (UInt32, UInt32) { (number(back: 1), number(back: 2)) }

        /// A change was applied to the key at `number`.
        @inline(__always) mutating func push(_ number: UInt32) {
            // Slot `pushed - 1` holds the newest (`UInt32.max`, never a key's number, when nothing was pushed).
            guard ring[Int((pushed &- 1) % Self.capacity)] != number else { return }
            ring[Int(pushed % Self.capacity)] = number
            pushed &+= 1
        }
    }
}
