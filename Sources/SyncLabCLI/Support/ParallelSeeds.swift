import Dispatch
import Foundation

/// Runs independent jobs on `jobs` threads and returns their results in input order, so output
/// never depends on scheduling. Each job (one seed's simulation, or one shrink) is
/// single-threaded; threads exist only here, in the command line, never in the simulation.
final class ParallelSeeds<Output: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Output?]
    private var next = 0
    private var done = 0

    private init(count: Int) { results = Array(repeating: nil, count: count) }

    /// `work(i)` for every i in 0..<count; `progress(done)` after each, under a lock.
    static func map(count: Int, jobs: Int, _ work: @escaping @Sendable (Int) -> Output, progress: @escaping @Sendable (Int) -> Void = { _ in }) -> [Output] {
        let state = ParallelSeeds(count: count)
        let workers = max(1, min(jobs, count))
        if workers == 1 {
            for index in 0..<count { state.results[index] = work(index); progress(index + 1) }
        } else {
            DispatchQueue.concurrentPerform(iterations: workers) { _ in // allowed: CLI parallelism, results ordered by seed
                while let index = state.take() {
                    let output = work(index)
                    state.store(output, at: index, progress)
                }
            }
        }
        return state.results.map { $0! }
    }

    private func take() -> Int? {
        lock.lock(); defer { lock.unlock() }
        guard next < results.count else { return nil }
        next += 1
        return next - 1
    }

    private func store(_ output: Output, at index: Int, _ progress: (Int) -> Void) {
        lock.lock(); defer { lock.unlock() }
        results[index] = output
        done += 1
        progress(done)
    }
}
