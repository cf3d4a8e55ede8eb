import SyncLabKernel

/// The timeline's x axis: true time, piecewise linear, with long idle stretches folded.
///
/// Activity happens in bursts (a save and its upload take milliseconds; the next step is a minute
/// later). One linear scale cannot show both, so the axis keeps a single scale wherever something
/// happens and replaces every stretch in which nothing happens and that would be wider than
/// `foldAbovePixels` by a fixed-width fold, marked as folded, with its duration written on it.
/// The scale is chosen so a typical network latency gets `latencyPixels`, then reduced until the
/// whole run fits in `maxWidth`; in the limit nothing is folded and the axis is plain linear.
struct TimelineAxis {
    struct Segment {
        var start: Int64
        var end: Int64
        var x0: Double
        var x1: Double
        var folded: Bool
    }

    /// Pixels a fold takes, whatever it hides.
    static let foldPixels = 34.0
    /// A quiet gap wider than this (at the current scale) is folded.
    static let foldAbovePixels = 140.0
    /// Pixels given to one typical network latency.
    static let latencyPixels = 40.0
    /// Room kept before the first and after the last event.
    static let edgePixels = 16.0

    private(set) var segments: [Segment] = []
    private(set) var width: Double = 0
    /// Pixels per microsecond in unfolded segments.
    private(set) var scale: Double = 0

    /// - Parameters:
    ///   - times: the moments something is drawn (any order, duplicates allowed).
    ///   - end: the run's end (true time).
    ///   - typicalLatency: a typical one-way message latency, in microseconds.
    ///   - maxWidth: the widest the axis may be, in pixels.
    /// - Complexity: O(n log n) in the number of times.
    init(times: [Int64], end: Int64, typicalLatency: Int64, maxWidth: Double) {
        let end = max(end, 1)
        var points = times.filter { $0 >= 0 && $0 <= end }
        points.append(0)
        points.append(end)
        points.sort()
        var unique: [Int64] = []
        unique.reserveCapacity(points.count)
        for point in points where unique.last != point { unique.append(point) }
        var gaps: [Int64] = []
        gaps.reserveCapacity(unique.count)
        for index in 1..<max(unique.count, 1) where index < unique.count { gaps.append(unique[index] - unique[index - 1]) }

        let usable = max(maxWidth - 2 * TimelineAxis.edgePixels, 200)
        let floorScale = usable / Double(end)
        var scale = TimelineAxis.latencyPixels / Double(max(typicalLatency, 1_000))
        scale = max(scale, floorScale)
        func totalWidth(_ scale: Double) -> Double {
            var total = 0.0
            for gap in gaps {
                let pixels = Double(gap) * scale
                total += pixels > TimelineAxis.foldAbovePixels ? TimelineAxis.foldPixels : pixels
            }
            return total
        }
        var attempts = 0
        while totalWidth(scale) > usable && scale > floorScale && attempts < 80 {
            scale = max(scale * 0.75, floorScale)
            attempts += 1
        }
        if totalWidth(scale) > usable { scale = floorScale }
        self.scale = scale

        var x = TimelineAxis.edgePixels
        var pendingStart = unique.first ?? 0
        var pendingX = x
        for (index, gap) in gaps.enumerated() {
            let pixels = Double(gap) * scale
            let start = unique[index], stop = unique[index + 1]
            if pixels > TimelineAxis.foldAbovePixels {
                if start > pendingStart { segments.append(Segment(start: pendingStart, end: start, x0: pendingX, x1: x, folded: false)) }
                segments.append(Segment(start: start, end: stop, x0: x, x1: x + TimelineAxis.foldPixels, folded: true))
                x += TimelineAxis.foldPixels
                pendingStart = stop
                pendingX = x
            } else {
                x += pixels
            }
        }
        let last = unique.last ?? end
        if last > pendingStart || segments.isEmpty {
            segments.append(Segment(start: pendingStart, end: max(last, Saturating.add(pendingStart, 1)), x0: pendingX, x1: max(x, pendingX + 1), folded: false))
        }
        width = x + TimelineAxis.edgePixels
    }

    /// The x of a true time.
    /// - Complexity: O(log segments).
    func x(_ time: Int64) -> Double {
        guard let first = segments.first, let last = segments.last else { return 0 }
        if time <= first.start { return first.x0 }
        if time >= last.end { return last.x1 }
        var low = 0, high = segments.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if segments[middle].start <= time { low = middle } else { high = middle - 1 }
        }
        let segment = segments[low]
        let span = Double(segment.end - segment.start)
        guard span > 0 else { return segment.x0 }
        return segment.x0 + (segment.x1 - segment.x0) * Double(time - segment.start) / span
    }

    /// A tick step (microseconds) that puts at least `pixels` between labelled ticks.
    func tickStep(minimumPixels pixels: Double) -> Int64 {
        let steps: [Int64] = [1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000,
                              1_000_000, 2_000_000, 5_000_000, 10_000_000, 15_000_000, 30_000_000,
                              60_000_000, 120_000_000, 300_000_000, 600_000_000, 900_000_000, 1_800_000_000,
                              3_600_000_000, 7_200_000_000, 10_800_000_000, 21_600_000_000, 43_200_000_000, 86_400_000_000]
        for step in steps where Double(step) * scale >= pixels { return step }
        return steps[steps.count - 1]
    }
}
