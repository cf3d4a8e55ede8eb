import SyncLabKernel

/// The kernel's no-op event path, for `synclab bench --kernel`: the simulator's own event type
/// through the (time, sequence) heap with a steady number of pending events, handled by a
/// dispatch that does nothing. Measures the floor every real event pays.
public enum KernelBenchmark {
    /// Runs `events` pops, each pushing one replacement, with `pending` events in the heap.
    /// - Returns: a checksum so the optimiser cannot drop the loop.
    public static func run(events: Int, pending: Int, seed: UInt64) -> Int64 {
        var random = SeededRandom(seed: seed, stream: "bench/kernel")
        var queue = EventQueue<SimulationEvent>()
        for index in 0..<pending {
            queue.push(.step(index: index), at: SimInstant(microseconds: Int64(random.next() % 1_000_000)))
        }
        var checksum: Int64 = 0
        for _ in 0..<events {
            guard let (time, event) = queue.pop() else { break }
            switch event {
            case .step(let index): checksum &+= Int64(index)
            case .launch, .heal, .requestArrives, .responseArrives, .requestTimeout, .pushArrives, .timer: break
            }
            queue.push(event, at: time + SimDuration(microseconds: Int64(random.next() % 1_000)))
        }
        return checksum
    }
}
