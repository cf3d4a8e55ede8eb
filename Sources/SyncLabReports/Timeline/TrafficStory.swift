/// Which arrows on a crowded lane tell an anomaly's story, so they are drawn while the rest of
/// the lane's traffic becomes a density strip.
///
/// A lane with thousands of requests cannot show them all (a day of 50 devices is hundreds of
/// thousands of arrows and tens of megabytes). What a reader needs around each anchor — an
/// anomaly on its device, or a write an anomaly names, on the lane that made it — is: the
/// request that carried the change up (the first request at or after it that is not a fetch),
/// the first request at or after it whatever it was, the last exchange the device had completed
/// before it (what it knew), and the last push it had received. That is at most four arrows per
/// anchor, so the drawing stays bounded by the number of anomalies, not by the traffic.
struct TrafficStory {
    /// Indices into `model.messages` and `model.pushes` to draw. (Sets are only looked up, never
    /// iterated: drawing goes in the model's order.)
    private(set) var messages: Set<Int> = []
    private(set) var pushes: Set<Int> = []

    /// How far from an anchor the search for its requests goes, in requests and pushes of that
    /// lane (of every store).
    static let searchRequestsMax = 256

    /// No story: nothing on a crowded lane is drawn.
    init() {}

    init(model: ReportModel) {
        var anchors: [Anchor] = []
        for anomaly in model.anomalies {
            if let lane = model.laneIndex(anomaly.device) { anchors.append(Anchor(lane: lane, at: anomaly.at, store: anomaly.store)) }
            for write in [anomaly.write, anomaly.replacedBy].compactMap({ $0 }) {
                if let place = model.writePlaces[write] { anchors.append(Anchor(lane: place.lane, at: place.at, store: anomaly.store)) }
            }
        }
        guard !anchors.isEmpty else { return }
        // Each lane's traffic in time order (the model keeps it in trace order: by send time).
        var messagesByLane = [[Int]](repeating: [], count: model.lanes.count)
        for (index, message) in model.messages.enumerated() { messagesByLane[message.lane].append(index) }
        var pushesByLane = [[Int]](repeating: [], count: model.lanes.count)
        for (index, push) in model.pushes.enumerated() { pushesByLane[push.lane].append(index) }

        for anchor in anchors where anchor.lane < model.lanes.count {
            let lane = messagesByLane[anchor.lane]
            func inStore(_ position: Int) -> Bool { model.messages[lane[position]].store == anchor.store }
            let first = TrafficStory.firstIndex(in: lane) { model.messages[$0].sentAt >= anchor.at }
            let ahead = first..<min(lane.count, first + TrafficStory.searchRequestsMax)
            if let position = ahead.first(where: inStore) { messages.insert(lane[position]) }
            if let position = ahead.first(where: { inStore($0) && !model.messages[lane[$0]].kind.hasPrefix("fetch") }) {
                messages.insert(lane[position])
            }
            let behind = max(0, first - TrafficStory.searchRequestsMax)..<first
            if let position = behind.last(where: { inStore($0) && (model.messages[lane[$0]].deviceAt.map { $0 <= anchor.at } ?? false) }) {
                messages.insert(lane[position])
            }
            let lanePushes = pushesByLane[anchor.lane]
            let after = TrafficStory.firstIndex(in: lanePushes) { model.pushes[$0].sentAt > anchor.at }
            let before = max(0, after - TrafficStory.searchRequestsMax)..<after
            if let position = before.last(where: {
                let push = model.pushes[lanePushes[$0]]
                return push.store == anchor.store && (push.arrivedAt.map { $0 <= anchor.at } ?? false)
            }) {
                pushes.insert(lanePushes[position])
            }
        }
    }

    /// A lane, an instant and a store an anomaly's story is told around.
    private struct Anchor {
        var lane: Int
        var at: Int64
        var store: String
    }

    /// The first position in `indices` where `isAfter` holds, for a predicate that is false and
    /// then true along the array; `indices.count` when it never holds.
    /// - Complexity: O(log n).
    private static func firstIndex(in indices: [Int], where isAfter: (Int) -> Bool) -> Int {
        var low = 0, high = indices.count
        while low < high {
            let middle = (low + high) / 2
            if isAfter(indices[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
