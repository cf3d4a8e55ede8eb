import SyncLabChecker
import SyncLabHistory

/// The few sentences around a checker's sentence that let a reader who never saw the scenario
/// understand an anomaly: where and when the writes were made, and whether the device was
/// offline at the time. Derived only from the saved trace, so both report paths agree.
public enum AnomalyContext {
    /// Extra sentences for `anomaly` (may be empty), in a fixed order.
    public static func sentences(_ anomaly: ReportModel.Anomaly, in model: ReportModel) -> [String] {
        var sentences: [String] = []
        if let write = anomaly.write, let place = model.writePlaces[write] {
            let device = model.lanes[place.lane].name
            var sentence = "\(write) (\(place.summary)) was made on \(device) at \(ReportTime.format(place.at))"
            if let down = model.downInterval(lane: place.lane, at: place.at) {
                sentence += ", while \(device) was \(down.what) (from \(ReportTime.format(down.start)) to \(ReportTime.format(down.end)))"
            }
            sentences.append(sentence + ".")
        }
        if let replacedBy = anomaly.replacedBy, let place = model.writePlaces[replacedBy] {
            let device = model.lanes[place.lane].name
            var sentence = "It was replaced by \(replacedBy) (\(place.summary)), made on \(device) at \(ReportTime.format(place.at))"
            if let down = model.downInterval(lane: place.lane, at: place.at) {
                sentence += " while \(device) was \(down.what)"
            }
            sentences.append(sentence + ".")
        }
        if anomaly.kind == AnomalyKind.divergence.rawValue, let lane = model.laneIndex(anomaly.device),
           let down = model.downAtEnd(lane: lane) {
            sentences.append("\(anomaly.device) was still \(down.what) at the end of the run (since \(ReportTime.format(down.start))).")
        }
        return sentences
    }
}
