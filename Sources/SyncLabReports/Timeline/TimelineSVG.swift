import SyncLabChecker
import SyncLabHistory

/// Draws one run as an inline SVG: a lane per device and one for the cloud, true time across.
///
/// Readability at 2 and at 50 devices, over seconds or a day, comes from three rules: idle
/// stretches are folded (`TimelineAxis`); marks on a crowded lane are aggregated into counted
/// marks, and traffic beyond a cap per lane becomes a density strip, except for everything an
/// anomaly's story needs (`TrafficStory`), which is always drawn; labels are placed only where they do not overlap.
/// Every string from the scenario goes through `Markup.escape`.
struct TimelineSVG {
    /// Lanes at most this many messages and pushes get every arrow drawn.
    static let arrowsPerLaneMax = 60
    /// Above this many operations a lane's marks are aggregated into counted bins.
    static let operationsPerLaneMax = 120
    /// Anomaly annotations written under the lanes; the rest are in the list above.
    static let annotationsMax = 24
    static let leftPixels = 170.0
    static let axisPixels = 54.0

    enum Row: Equatable {
        case device(Int)
        case cloud
    }

    let model: ReportModel
    let axis: TimelineAxis
    let rows: [Row]
    /// Each device lane's row in `rows`, and the cloud's: looked up for every mark drawn, so
    /// never searched for (8,000 lanes took 9 s when they were).
    let rowOfLane: [Int]
    let cloudRow: Int
    /// Distinct accounts among the lanes: more than one, and each lane names its account.
    let accountCount: Int
    let laneHeight: Double
    /// Writes an anomaly names (lost, replacing, rejected): always drawn and labelled.
    let importantWrites: Set<String>

    init(model: ReportModel) {
        self.model = model
        var times: [Int64] = []
        var latencies: [Int64] = []
        times.reserveCapacity(model.operations.count + model.messages.count * 4 + model.pushes.count * 2 + model.markers.count)
        for operation in model.operations { times.append(operation.at) }
        for message in model.messages {
            times.append(message.sentAt)
            if let at = message.cloudAt { times.append(at); latencies.append(at - message.sentAt) }
            if let at = message.respondedAt { times.append(at) }
            if let at = message.deviceAt, let from = message.respondedAt { times.append(at); latencies.append(at - from) }
        }
        for push in model.pushes {
            times.append(push.sentAt)
            if let at = push.arrivedAt { times.append(at) }
        }
        for marker in model.markers { times.append(marker.at) }
        for interval in model.downtime { times.append(interval.start); times.append(interval.end) }
        for interval in model.cloudIntervals { times.append(interval.start); times.append(interval.end) }
        for anomaly in model.anomalies { times.append(anomaly.at) }
        latencies.sort()
        let typical = latencies.isEmpty ? 100_000 : latencies[latencies.count / 2]
        let maxWidth = model.lanes.count > 12 ? 9_000.0 : 3_600.0
        axis = TimelineAxis(times: times, end: model.endMicroseconds, typicalLatency: typical, maxWidth: maxWidth)

        var rows: [Row] = []
        let above = (model.lanes.count + 1) / 2
        for index in 0..<above { rows.append(.device(index)) }
        rows.append(.cloud)
        for index in above..<model.lanes.count { rows.append(.device(index)) }
        self.rows = rows
        var rowOfLane = [Int](repeating: 0, count: model.lanes.count)
        var cloudRow = 0
        for (index, row) in rows.enumerated() {
            switch row {
            case .device(let lane): rowOfLane[lane] = index
            case .cloud: cloudRow = index
            }
        }
        self.rowOfLane = rowOfLane
        self.cloudRow = cloudRow
        accountCount = Set(model.lanes.map(\.account)).count
        switch model.lanes.count {
        case 0...4: laneHeight = 74
        case 5...10: laneHeight = 52
        case 11...24: laneHeight = 34
        default: laneHeight = 24
        }

        importantWrites = model.anomalyWrites
    }

    // MARK: geometry

    var width: Double { TimelineSVG.leftPixels + axis.width + 40 }
    func x(_ time: Int64) -> Double { TimelineSVG.leftPixels + axis.x(time) }
    func rowTop(_ index: Int) -> Double { TimelineSVG.axisPixels + Double(index) * laneHeight }
    func laneY(_ lane: Int) -> Double { rowTop(lane >= 0 && lane < rowOfLane.count ? rowOfLane[lane] : 0) + laneHeight / 2 }
    var cloudY: Double { rowTop(cloudRow) + laneHeight / 2 }
    var lanesBottom: Double { rowTop(rows.count) }
    func y(_ lane: Int?) -> Double { lane.map(laneY) ?? cloudY }

    static func n(_ value: Double) -> String { SVGNumber.text(value) }
    static func e(_ text: String) -> String { Markup.escape(text) }

    /// At most `limit` characters, with an ellipsis.
    static func clip(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }

    /// Estimated text width at the 11 px label font.
    static func textWidth(_ text: String) -> Double { Double(text.count) * 6.1 }

    // MARK: drawing

    func render() -> String {
        let annotated = Array(model.anomalies.prefix(TimelineSVG.annotationsMax))
        let annotationTop = lanesBottom + 18
        let characters = max(60, Int((max(width, 900) - TimelineSVG.leftPixels - 30) / 6.1))
        let wrapped = annotated.map { TimelineSVG.wrap("\($0.kind) — \($0.explanation)", characters) }
        let lineCount = wrapped.reduce(0) { $0 + $1.count }
        let height = annotationTop + Double(lineCount) * 15 + Double(annotated.count) * 5 + (model.anomalies.count > annotated.count ? 18 : 0) + 10
        var out = ""
        out.reserveCapacity(64 * 1024)
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"timeline\" width=\"\(TimelineSVG.n(width))\" height=\"\(TimelineSVG.n(height))\" viewBox=\"0 0 \(TimelineSVG.n(width)) \(TimelineSVG.n(height))\" role=\"img\" aria-label=\"timeline\">\n"
        out += TimelineSVG.definitions
        drawLanes(&out)
        drawAxis(&out, height: lanesBottom)
        drawDowntime(&out)
        drawTraffic(&out)
        drawOperations(&out)
        drawMarkers(&out)
        drawAnomalies(&out, annotationTop: annotationTop, annotated: annotated, wrapped: wrapped)
        out += "</svg>\n"
        return out
    }

    static let definitions = """
    <defs>
    <marker id="ah-up" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0L8,4L0,8z" class="ah-up"/></marker>
    <marker id="ah-down" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0L8,4L0,8z" class="ah-down"/></marker>
    <marker id="ah-push" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0L8,4L0,8z" class="ah-push"/></marker>
    <marker id="ah-lost" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0L8,4L0,8z" class="ah-lost"/></marker>
    <pattern id="hatch" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="8" height="8" class="hatch-bg"/><line x1="0" y1="0" x2="0" y2="8" class="hatch-line"/></pattern>
    <pattern id="fold" width="6" height="6" patternUnits="userSpaceOnUse"><rect width="6" height="6" class="fold-bg"/><path d="M0,3L3,0L6,3L3,6z" class="fold-line"/></pattern>
    </defs>

    """

    func drawLanes(_ out: inout String) {
        let right = width
        out += "<g class=\"lanes\">\n"
        for (index, row) in rows.enumerated() {
            let top = rowTop(index)
            let stripe = row == .cloud ? "lane cloud" : (index % 2 == 0 ? "lane even" : "lane odd")
            out += "<rect class=\"\(stripe)\" x=\"0\" y=\"\(TimelineSVG.n(top))\" width=\"\(TimelineSVG.n(right))\" height=\"\(TimelineSVG.n(laneHeight))\"/>"
            let middle = top + laneHeight / 2
            out += "<line class=\"lane-axis\" x1=\"\(TimelineSVG.n(TimelineSVG.leftPixels))\" y1=\"\(TimelineSVG.n(middle))\" x2=\"\(TimelineSVG.n(right))\" y2=\"\(TimelineSVG.n(middle))\"/>"
            switch row {
            case .cloud:
                out += "<text class=\"lane-name\" x=\"8\" y=\"\(TimelineSVG.n(middle + 4))\">cloud</text>\n"
            case .device(let lane):
                let info = model.lanes[lane]
                var clock = "clock \(ReportTime.signed(info.clockOffsetMicroseconds))"
                // A whole ppm without its `.0`, so the label fits: "drift -50000.0 p…" was cut
                // before its unit (the lane's title keeps the value as the trace wrote it).
                let drift = info.driftPpm.hasSuffix(".0") ? String(info.driftPpm.dropLast(2)) : info.driftPpm
                if drift != "0" { clock += ", drift \(drift) ppm" }
                if accountCount > 1 { clock += " · \(info.account)" }
                let compact = laneHeight < 30
                let title = "\(info.name): account \(info.account), clock offset \(ReportTime.signed(info.clockOffsetMicroseconds)), drift \(info.driftPpm) ppm\(info.initiallyOnline ? "" : ", starts offline")"
                out += "<g><title>\(TimelineSVG.e(title))</title>"
                if compact {
                    out += "<text class=\"lane-name\" x=\"8\" y=\"\(TimelineSVG.n(middle + 4))\">\(TimelineSVG.e(TimelineSVG.clip(info.name, 9)))<tspan class=\"lane-clock\" dx=\"6\">\(TimelineSVG.e(TimelineSVG.clip(clock, 16)))</tspan></text>"
                } else {
                    out += "<text class=\"lane-name\" x=\"8\" y=\"\(TimelineSVG.n(middle - 2))\">\(TimelineSVG.e(TimelineSVG.clip(info.name, 22)))</text>"
                    out += "<text class=\"lane-clock\" x=\"8\" y=\"\(TimelineSVG.n(middle + 12))\">\(TimelineSVG.e(TimelineSVG.clip(clock, 28)))</text>"
                }
                out += "</g>\n"
            }
        }
        out += "</g>\n"
    }

    func drawAxis(_ out: inout String, height: Double) {
        out += "<g class=\"axis\">\n"
        let top = TimelineSVG.axisPixels
        out += "<text class=\"axis-title\" x=\"8\" y=\"16\">true time →</text>\n"
        var lastLabelRight = -Double.infinity
        func label(_ time: Int64, at position: Double, major: Bool) {
            let text = ReportTime.format(time)
            let left = position - TimelineSVG.textWidth(text) / 2
            out += "<line class=\"\(major ? "tick" : "tick minor")\" x1=\"\(TimelineSVG.n(position))\" y1=\"\(TimelineSVG.n(top - 6))\" x2=\"\(TimelineSVG.n(position))\" y2=\"\(TimelineSVG.n(height))\"/>"
            if left > lastLabelRight + 6 && left > TimelineSVG.leftPixels - 10 {
                out += "<text class=\"tick-label\" x=\"\(TimelineSVG.n(position))\" y=\"\(TimelineSVG.n(top - 10))\">\(TimelineSVG.e(text))</text>"
                lastLabelRight = left + TimelineSVG.textWidth(text)
            }
            out += "\n"
        }
        let step = axis.tickStep(minimumPixels: 90)
        var foldRows = LabelRows()
        for segment in axis.segments {
            if segment.folded {
                let left = TimelineSVG.leftPixels + segment.x0, right = TimelineSVG.leftPixels + segment.x1
                let hidden = ReportTime.format(segment.end - segment.start)
                out += "<g class=\"fold\"><title>\(TimelineSVG.e("folded: \(hidden) with nothing happening, from \(ReportTime.format(segment.start)) to \(ReportTime.format(segment.end))"))</title>"
                out += "<rect x=\"\(TimelineSVG.n(left))\" y=\"\(TimelineSVG.n(top - 4))\" width=\"\(TimelineSVG.n(right - left))\" height=\"\(TimelineSVG.n(height - top + 4))\" fill=\"url(#fold)\" class=\"fold-band\"/>"
                let caption = "⋯\(hidden)⋯"
                let half = TimelineSVG.textWidth(caption) / 2 * 0.9
                if let row = foldRows.place(((left + right) / 2 - half)...((left + right) / 2 + half), force: false) {
                    out += "<text class=\"fold-label\" x=\"\(TimelineSVG.n((left + right) / 2))\" y=\"\(TimelineSVG.n(top - 24 - Double(row) * 12))\">\(TimelineSVG.e(caption))</text>"
                }
                out += "</g>\n"
                continue
            }
            label(segment.start, at: x(segment.start), major: true)
            var tick = (segment.start / step + 1) * step
            var count = 0
            while tick < segment.end && count < 400 {
                if x(tick) - x(segment.start) > 40 && x(segment.end) - x(tick) > 40 { label(tick, at: x(tick), major: false) }
                tick += step
                count += 1
            }
        }
        if let last = axis.segments.last, !last.folded { label(last.end, at: x(last.end), major: true) }
        out += "</g>\n"
    }

    func drawDowntime(_ out: inout String) {
        out += "<g class=\"downtime\">\n"
        let band = laneHeight - 2
        for interval in model.downtime {
            let left = x(interval.start), right = max(x(interval.end), left + 2)
            let top = laneY(interval.lane) - band / 2
            let text = "\(model.lanes[interval.lane].name) \(interval.what) from \(ReportTime.format(interval.start)) to \(ReportTime.format(interval.end)) (\(ReportTime.format(interval.end - interval.start)))"
            out += "<g class=\"\(interval.what == "offline" ? "offline" : "crashed")\"><title>\(TimelineSVG.e(text))</title>"
            out += "<rect x=\"\(TimelineSVG.n(left))\" y=\"\(TimelineSVG.n(top))\" width=\"\(TimelineSVG.n(right - left))\" height=\"\(TimelineSVG.n(band))\" fill=\"url(#hatch)\"/>"
            let caption = "\(interval.what) \(ReportTime.format(interval.start))–\(ReportTime.format(interval.end))"
            if right - left > TimelineSVG.textWidth(caption) + 8 && laneHeight >= 30 {
                out += "<text class=\"down-label\" x=\"\(TimelineSVG.n(left + 4))\" y=\"\(TimelineSVG.n(top + band - 3))\">\(TimelineSVG.e(caption))</text>"
            } else if right - left > TimelineSVG.textWidth(interval.what) + 8 {
                out += "<text class=\"down-label\" x=\"\(TimelineSVG.n(left + 4))\" y=\"\(TimelineSVG.n(top + band - 3))\">\(TimelineSVG.e(interval.what))</text>"
            }
            out += "</g>\n"
        }
        for interval in model.cloudIntervals {
            let left = x(interval.start), right = max(x(interval.end), left + 2)
            let top = cloudY - laneHeight * 0.4
            out += "<g class=\"crashed\"><title>\(TimelineSVG.e("\(interval.what) from \(ReportTime.format(interval.start)) to \(ReportTime.format(interval.end))"))</title>"
            out += "<rect x=\"\(TimelineSVG.n(left))\" y=\"\(TimelineSVG.n(top))\" width=\"\(TimelineSVG.n(right - left))\" height=\"\(TimelineSVG.n(laneHeight * 0.8))\" fill=\"url(#hatch)\"/>"
            if right - left > TimelineSVG.textWidth(interval.what) + 8 {
                out += "<text class=\"down-label\" x=\"\(TimelineSVG.n(left + 4))\" y=\"\(TimelineSVG.n(top + laneHeight * 0.8 - 3))\">\(TimelineSVG.e(interval.what))</text>"
            }
            out += "</g>\n"
        }
        out += "</g>\n"
    }

    func drawTraffic(_ out: inout String) {
        var perLane = [Int](repeating: 0, count: model.lanes.count)
        for message in model.messages { perLane[message.lane] += 1 }
        for push in model.pushes { perLane[push.lane] += 1 }
        let labelLatency = model.lanes.count <= 8
        // Density strips for crowded lanes: (lane, bin) → count, bins of 6 px.
        var density: [[Int]] = Array(repeating: [], count: model.lanes.count)
        func count(_ lane: Int, _ time: Int64) {
            if density[lane].isEmpty { density[lane] = Array(repeating: 0, count: Int(width / 6) + 2) }
            let bin = min(max(Int(x(time) / 6), 0), density[lane].count - 1)
            density[lane][bin] += 1
        }
        // Only crowded lanes need the story; most small runs have none.
        let story = perLane.contains(where: { $0 > TimelineSVG.arrowsPerLaneMax })
            ? TrafficStory(model: model) : TrafficStory()
        out += "<g class=\"traffic\">\n"
        var labels = [LabelRows](repeating: LabelRows(), count: model.lanes.count)
        for (index, message) in model.messages.enumerated() {
            let crowded = perLane[message.lane] > TimelineSVG.arrowsPerLaneMax
            if crowded && !story.messages.contains(index) { count(message.lane, message.sentAt); continue }
            drawMessage(message, &out, labelLatency: labelLatency, labels: &labels)
        }
        for (index, push) in model.pushes.enumerated() {
            let crowded = perLane[push.lane] > TimelineSVG.arrowsPerLaneMax
            if crowded && !story.pushes.contains(index) { count(push.lane, push.sentAt); continue }
            drawPush(push, &out)
        }
        for (lane, bins) in density.enumerated() where !bins.isEmpty {
            let top = laneY(lane) - laneHeight / 2 + 1
            out += "<g class=\"density\"><title>\(TimelineSVG.e("\(model.lanes[lane].name): \(perLane[lane]) messages and pushes; shaded by how many per 6 px (arrows drawn only around anomalies)"))</title>"
            drawStrip(bins, top: top, &out)
            out += "</g>\n"
        }
        out += "</g>\n"
    }

    /// A density bin's shade in quarters: 0 for none, 1 for a message or two, up to 4 for eight
    /// or more.
    static func densityShade(_ count: Int) -> Int {
        count == 0 ? 0 : min(4, 1 + count / 3)
    }

    func drawMessage(_ message: ReportModel.Message, _ out: inout String, labelLatency: Bool, labels: inout [LabelRows]) {
        let name = model.lanes[message.lane].name
        let deviceY = laneY(message.lane), cloudY = self.cloudY
        let direction = cloudY < deviceY ? -1.0 : 1.0
        let start = x(message.sentAt)
        let size = message.bytes > 0 ? ", \(message.bytes) B" : ""
        out += "<g class=\"msg\">"
        if let cloudAt = message.cloudAt {
            let latency = cloudAt - message.sentAt
            out += "<title>\(TimelineSVG.e("\(name) → cloud: \(message.store) \(message.kind) (request \(message.request)\(size)), sent \(ReportTime.format(message.sentAt)), arrived \(ReportTime.format(cloudAt)), latency \(ReportTime.short(latency))\(message.result.map { "; answer \($0)" } ?? "")"))</title>"
            let end = x(cloudAt)
            out += "<line class=\"up\" x1=\"\(TimelineSVG.n(start))\" y1=\"\(TimelineSVG.n(deviceY + direction * 4))\" x2=\"\(TimelineSVG.n(end))\" y2=\"\(TimelineSVG.n(cloudY - direction * 4))\" marker-end=\"url(#ah-up)\"/>"
            let upText = "\(message.kind) \(ReportTime.short(latency))"
            if labelLatency && end - start > 34,
               let row = labels[message.lane].place(((start + end) / 2)...((start + end) / 2 + TimelineSVG.textWidth(upText) * 0.9 + 6), force: false) {
                out += "<text class=\"latency\" x=\"\(TimelineSVG.n((start + end) / 2 + 3))\" y=\"\(TimelineSVG.n((deviceY + cloudY) / 2 + Double(row) * 11 - 4))\">\(TimelineSVG.e(upText))</text>"
            }
            if let respondedAt = message.respondedAt {
                let from = x(respondedAt)
                if let deviceAt = message.deviceAt {
                    let to = x(deviceAt)
                    out += "<line class=\"down\" x1=\"\(TimelineSVG.n(from))\" y1=\"\(TimelineSVG.n(cloudY - direction * 4))\" x2=\"\(TimelineSVG.n(to))\" y2=\"\(TimelineSVG.n(deviceY + direction * 4))\" marker-end=\"url(#ah-down)\"/>"
                    let downText = "\(message.result ?? "") \(ReportTime.short(deviceAt - respondedAt))"
                    if labelLatency && to - from > 34,
                       let row = labels[message.lane].place(((from + to) / 2)...((from + to) / 2 + TimelineSVG.textWidth(downText) * 0.9 + 6), force: false) {
                        out += "<text class=\"latency\" x=\"\(TimelineSVG.n((from + to) / 2 + 3))\" y=\"\(TimelineSVG.n((deviceY + cloudY) / 2 + Double(row) * 11 - 4))\">\(TimelineSVG.e(downText))</text>"
                    }
                } else {
                    let stubY = cloudY + (deviceY - cloudY) * 0.4
                    out += "<line class=\"down failed\" x1=\"\(TimelineSVG.n(from))\" y1=\"\(TimelineSVG.n(cloudY - direction * 4))\" x2=\"\(TimelineSVG.n(from + 8))\" y2=\"\(TimelineSVG.n(stubY))\"/>"
                    out += cross(from + 8, stubY, "response \(message.responseFate ?? "not delivered")")
                }
            }
        } else {
            let fate = message.requestFate ?? "in flight at the end"
            out += "<title>\(TimelineSVG.e("\(name) → cloud: \(message.store) \(message.kind) (request \(message.request)\(size)) at \(ReportTime.format(message.sentAt)): \(fate)"))</title>"
            if fate == "networkUnavailable" {
                out += cross(start, deviceY + direction * 7, "not sent: offline")
            } else {
                let stubY = deviceY + (cloudY - deviceY) * 0.4
                out += "<line class=\"up failed\" x1=\"\(TimelineSVG.n(start))\" y1=\"\(TimelineSVG.n(deviceY + direction * 4))\" x2=\"\(TimelineSVG.n(start + 8))\" y2=\"\(TimelineSVG.n(stubY))\"/>"
                out += cross(start + 8, stubY, fate)
            }
        }
        out += "</g>\n"
    }

    func cross(_ cx: Double, _ cy: Double, _ why: String) -> String {
        let r = 3.0
        return "<path class=\"cross\" d=\"M\(TimelineSVG.n(cx - r)),\(TimelineSVG.n(cy - r))L\(TimelineSVG.n(cx + r)),\(TimelineSVG.n(cy + r))M\(TimelineSVG.n(cx - r)),\(TimelineSVG.n(cy + r))L\(TimelineSVG.n(cx + r)),\(TimelineSVG.n(cy - r))\"/>"
    }

    func drawPush(_ push: ReportModel.Push, _ out: inout String) {
        let name = model.lanes[push.lane].name
        let deviceY = laneY(push.lane)
        let direction = cloudY < deviceY ? -1.0 : 1.0
        let start = x(push.sentAt)
        out += "<g class=\"msg\">"
        if let arrivedAt = push.arrivedAt {
            out += "<title>\(TimelineSVG.e("push cloud → \(name) (\(push.store)), sent \(ReportTime.format(push.sentAt)), arrived \(ReportTime.format(arrivedAt)), latency \(ReportTime.short(arrivedAt - push.sentAt))"))</title>"
            out += "<line class=\"push\" x1=\"\(TimelineSVG.n(start))\" y1=\"\(TimelineSVG.n(cloudY - direction * 4))\" x2=\"\(TimelineSVG.n(x(arrivedAt)))\" y2=\"\(TimelineSVG.n(deviceY + direction * 4))\" marker-end=\"url(#ah-push)\"/>"
        } else {
            let fate = push.fate ?? "in flight at the end"
            out += "<title>\(TimelineSVG.e("push cloud → \(name) (\(push.store)) at \(ReportTime.format(push.sentAt)): \(fate)"))</title>"
            let stubY = cloudY + (deviceY - cloudY) * 0.4
            out += "<line class=\"push failed\" x1=\"\(TimelineSVG.n(start))\" y1=\"\(TimelineSVG.n(cloudY - direction * 4))\" x2=\"\(TimelineSVG.n(start + 6))\" y2=\"\(TimelineSVG.n(stubY))\"/>"
            out += cross(start + 6, stubY, fate)
        }
        out += "</g>\n"
    }

    /// Labels a row of one lane holds at most: past this the row counts as full, and a mark
    /// gets a label only if it must (an anomaly's write), without a search for room. Each label
    /// is checked against the row's others, so without a bound 20,000 anomalies on one lane
    /// cost 20,000² comparisons; a row this full is unreadable anyway (hovering still shows each
    /// mark's details).
    static let labelsPerRowMax = 400

    /// Label rows above and below a lane; each keeps the x ranges it has used.
    struct LabelRows {
        var used: [[ClosedRange<Double>]] = [[], []]
        mutating func place(_ range: ClosedRange<Double>, force: Bool) -> Int? {
            for row in 0..<used.count where used[row].count < TimelineSVG.labelsPerRowMax && !used[row].contains(where: { $0.overlaps(range) }) {
                used[row].append(range)
                return row
            }
            if force { used[0].append(range); return 0 }
            return nil
        }
    }

    func drawOperations(_ out: inout String) {
        var byLane: [[ReportModel.Operation]] = Array(repeating: [], count: model.lanes.count)
        for operation in model.operations { byLane[operation.lane].append(operation) }
        out += "<g class=\"ops\">\n"
        for (lane, operations) in byLane.enumerated() where !operations.isEmpty {
            let y = laneY(lane)
            var rows = LabelRows()
            let crowded = operations.count > TimelineSVG.operationsPerLaneMax
            let showLabels = laneHeight >= 30
            // Anomaly writes first, so their labels get room.
            let important = operations.filter { $0.write.map(importantWrites.contains) ?? false }
            for operation in important { drawOperation(operation, y: y, rows: &rows, label: true, force: true, &out) }
            let ordinary = operations.filter { !($0.write.map(importantWrites.contains) ?? false) }
            if !crowded {
                for operation in ordinary { drawOperation(operation, y: y, rows: &rows, label: showLabels, force: false, &out) }
                continue
            }
            // Crowded: one counted mark per 8 px bin.
            var index = 0
            while index < ordinary.count {
                let first = ordinary[index]
                let left = x(first.at)
                var last = index
                while last + 1 < ordinary.count && x(ordinary[last + 1].at) - left < 8 { last += 1 }
                if last == index {
                    drawOperation(first, y: y, rows: &rows, label: false, force: false, &out)
                } else {
                    let group = ordinary[index...last]
                    let writes = group.filter { $0.write != nil }.count
                    let text = "\(group.count) operations on \(model.lanes[lane].name) (\(writes) writes) from \(ReportTime.format(first.at)) to \(ReportTime.format(ordinary[last].at)); first: \(TimelineSVG.describe(first))"
                    out += "<g class=\"op group\"><title>\(TimelineSVG.e(text))</title><rect x=\"\(TimelineSVG.n(left - 3))\" y=\"\(TimelineSVG.n(y - 4))\" width=\"\(TimelineSVG.n(max(x(ordinary[last].at) - left, 0) + 6))\" height=\"8\" rx=\"3\"/></g>\n"
                }
                index = last + 1
            }
        }
        out += "</g>\n"
    }

    static func describe(_ operation: ReportModel.Operation) -> String {
        var text = operation.write.map { "\($0) " } ?? ""
        text += operation.summary ?? operation.op
        if let outcome = operation.outcome, outcome != "accepted" { text += " (\(outcome))" }
        return text
    }

    func drawOperation(_ operation: ReportModel.Operation, y: Double, rows: inout LabelRows, label: Bool, force: Bool, _ out: inout String) {
        let cx = x(operation.at)
        let isWrite = operation.write != nil
        let rejected = operation.outcome?.hasPrefix("rejected") ?? false
        let important = operation.write.map(importantWrites.contains) ?? false
        var detail = "\(model.lanes[operation.lane].name) at \(ReportTime.format(operation.at))"
        if let local = operation.localAt { detail += " (its clock: \(ReportTime.format(local)))" }
        detail += ": \(TimelineSVG.describe(operation))"
        if !operation.step.isEmpty { detail += " — \(operation.step)" }
        let kind = !isWrite ? "op other" : (rejected ? "op rejected" : (important ? "op write involved" : "op write"))
        out += "<g class=\"\(kind)\"><title>\(TimelineSVG.e(detail))</title>"
        if isWrite {
            out += "<circle cx=\"\(TimelineSVG.n(cx))\" cy=\"\(TimelineSVG.n(y))\" r=\"\(important ? 6 : 4.5)\"/>"
        } else {
            out += "<path d=\"M\(TimelineSVG.n(cx)),\(TimelineSVG.n(y - 5))L\(TimelineSVG.n(cx + 4)),\(TimelineSVG.n(y))L\(TimelineSVG.n(cx)),\(TimelineSVG.n(y + 5))L\(TimelineSVG.n(cx - 4)),\(TimelineSVG.n(y))z\"/>"
        }
        if label {
            let text = TimelineSVG.clip(isWrite ? "\(operation.write ?? "") \(operation.summary ?? operation.op)" : (operation.summary ?? operation.op), important ? 40 : 28)
            let left = cx - 4
            if let row = rows.place(left...(left + TimelineSVG.textWidth(text)), force: force) {
                let ty = row == 0 ? y - 9 : y + 17
                out += "<text class=\"op-label\" x=\"\(TimelineSVG.n(left))\" y=\"\(TimelineSVG.n(ty))\">\(TimelineSVG.e(text))</text>"
            }
        }
        out += "</g>\n"
    }

    func drawMarkers(_ out: inout String) {
        // Rows where one kind of mark is too frequent to draw one by one (thousands of
        // last-writer-wins decisions in a busy day) get a density strip for that kind instead;
        // marks about a write an anomaly names are still drawn.
        var perRowKind: [MarkerRowKind: Int] = [:]
        for marker in model.markers { perRowKind[MarkerRowKind(lane: marker.lane, kind: marker.kind), default: 0] += 1 }
        var strips: [MarkerRowKind: [Int]] = [:]
        var stripOrder: [MarkerRowKind] = []
        /// Each strip's slot on its row: the how-manyeth strip of that row (a count per row, not
        /// a search of every strip per strip).
        var stripSlot: [MarkerRowKind: Int] = [:]
        var stripsPerRow: [Int?: Int] = [:]
        out += "<g class=\"markers\">\n"
        for marker in model.markers {
            let rowKind = MarkerRowKind(lane: marker.lane, kind: marker.kind)
            if perRowKind[rowKind, default: 0] > TimelineSVG.marksPerRowKindMax && !marker.writes.contains(where: importantWrites.contains) {
                if strips[rowKind] == nil {
                    strips[rowKind] = Array(repeating: 0, count: Int(width / 6) + 2)
                    stripOrder.append(rowKind)
                    stripSlot[rowKind] = stripsPerRow[rowKind.lane, default: 0]
                    stripsPerRow[rowKind.lane, default: 0] += 1
                }
                strips[rowKind]?[min(max(Int(x(marker.at) / 6), 0), Int(width / 6) + 1)] += 1
                continue
            }
            let cx = x(marker.at), cy = y(marker.lane)
            let text = "\(ReportTime.format(marker.at)): \(marker.text)"
            out += "<g class=\"mark \(marker.kind.rawValue)\"><title>\(TimelineSVG.e(text))</title>"
            switch marker.kind {
            case .conflict, .conflictShown:
                let r = marker.kind == .conflict ? 7.0 : 5.0
                out += "<path d=\"M\(TimelineSVG.n(cx)),\(TimelineSVG.n(cy - r))L\(TimelineSVG.n(cx + r)),\(TimelineSVG.n(cy))L\(TimelineSVG.n(cx)),\(TimelineSVG.n(cy + r))L\(TimelineSVG.n(cx - r)),\(TimelineSVG.n(cy))z\"/>"
                if marker.kind == .conflict && laneHeight >= 30 {
                    out += "<text class=\"mark-label\" x=\"\(TimelineSVG.n(cx + 9))\" y=\"\(TimelineSVG.n(cy + 16))\">\(TimelineSVG.e(TimelineSVG.clip("conflict \(marker.item)", 30)))</text>"
                }
            case .rejected:
                out += "<rect x=\"\(TimelineSVG.n(cx - 5))\" y=\"\(TimelineSVG.n(cy - 5))\" width=\"10\" height=\"10\"/>"
            case .lastWriterWins:
                out += "<path d=\"M\(TimelineSVG.n(cx - 5)),\(TimelineSVG.n(cy + 9))L\(TimelineSVG.n(cx + 5)),\(TimelineSVG.n(cy + 9))L\(TimelineSVG.n(cx)),\(TimelineSVG.n(cy + 3))z\"/>"
            case .discarded, .assertFailed:
                out += cross(cx, cy, marker.text)
            case .clock:
                out += "<circle cx=\"\(TimelineSVG.n(cx))\" cy=\"\(TimelineSVG.n(cy))\" r=\"5\"/><path d=\"M\(TimelineSVG.n(cx)),\(TimelineSVG.n(cy - 3))L\(TimelineSVG.n(cx)),\(TimelineSVG.n(cy))L\(TimelineSVG.n(cx + 2.5)),\(TimelineSVG.n(cy))\"/>"
                if laneHeight >= 30 {
                    out += "<text class=\"mark-label\" x=\"\(TimelineSVG.n(cx + 8))\" y=\"\(TimelineSVG.n(cy + 16))\">\(TimelineSVG.e(TimelineSVG.clip(marker.text, 34)))</text>"
                }
            }
            out += "</g>\n"
        }
        for rowKind in stripOrder {
            let bins = strips[rowKind] ?? []
            let slot = stripSlot[rowKind] ?? 0
            let top = y(rowKind.lane) + laneHeight / 2 - 5 - Double(slot) * 4
            let row = rowKind.lane.map { model.lanes[$0].name } ?? "cloud"
            let total = perRowKind[rowKind, default: 0]
            out += "<g class=\"mark-density \(rowKind.kind.rawValue)\"><title>\(TimelineSVG.e("\(row): \(total) \(rowKind.kind.rawValue) marks; shaded by how many per 6 px (drawn one by one only for writes an anomaly names)"))</title>"
            drawStrip(bins, top: top, &out)
            out += "</g>\n"
        }
        out += "</g>\n"
    }

    /// Above this many marks of one kind on one row, the kind becomes a density strip there.
    static let marksPerRowKindMax = 60

    /// A row (a device's lane, or the cloud's when nil) and a kind of mark.
    struct MarkerRowKind: Hashable {
        var lane: Int?
        var kind: ReportModel.Marker.Kind
    }

    /// A density strip 4 px high at `top`: one rect per run of 6 px bins with the same shade (a
    /// busy lane is a few long runs, not a rect every 6 px).
    func drawStrip(_ bins: [Int], top: Double, _ out: inout String) {
        var bin = 0
        while bin < bins.count {
            let shade = TimelineSVG.densityShade(bins[bin])
            var end = bin + 1
            while end < bins.count && TimelineSVG.densityShade(bins[end]) == shade { end += 1 }
            if shade > 0 {
                out += "<rect x=\"\(TimelineSVG.n(Double(bin) * 6))\" y=\"\(TimelineSVG.n(top))\" width=\"\(TimelineSVG.n(Double(end - bin) * 6))\" height=\"4\" opacity=\"\(TimelineSVG.n(Double(shade) / 4))\"/>"
            }
            bin = end
        }
    }

    /// Splits `text` at spaces into lines of at most about `limit` characters.
    static func wrap(_ text: String, _ limit: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if !current.isEmpty && current.count + 1 + word.count > limit {
                lines.append(current)
                current = ""
            }
            current += current.isEmpty ? String(word) : " " + word
            while current.count > limit {
                lines.append(String(current.prefix(limit)))
                current = String(current.dropFirst(limit))
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines
    }

    func drawAnomalies(_ out: inout String, annotationTop: Double, annotated: [ReportModel.Anomaly], wrapped: [[String]]) {
        out += "<g class=\"anomalies\">\n"
        var row = annotationTop
        for (position, anomaly) in annotated.enumerated() {
            let number = "\(anomaly.number)"
            let lane = model.laneIndex(anomaly.device)
            var anchorX = x(anomaly.at), anchorY = y(lane)
            if let write = anomaly.write, let place = model.writePlaces[write] {
                anchorX = x(place.at); anchorY = laneY(place.lane)
            }
            if anomaly.kind == AnomalyKind.divergence.rawValue, let lane { anchorX = x(model.endMicroseconds) - 10; anchorY = laneY(lane) }
            let sentence = "\(number). \(anomaly.kind): \(anomaly.explanation)"
            out += "<g class=\"anomaly \(TimelineSVG.e(anomaly.kind))\"><title>\(TimelineSVG.e(sentence))</title>"
            if let replacedBy = anomaly.replacedBy, let to = model.writePlaces[replacedBy] {
                // The link from the lost write to the write that replaced it.
                let toX = x(to.at), toY = laneY(to.lane)
                let lift = max(laneHeight * 0.7, 26.0)
                let middleX = (anchorX + toX) / 2
                let path: String, badgeY: Double
                if toY == anchorY {
                    let bend = anchorY - lift
                    path = "M\(TimelineSVG.n(anchorX)),\(TimelineSVG.n(anchorY))C\(TimelineSVG.n(anchorX)),\(TimelineSVG.n(bend)) \(TimelineSVG.n(toX)),\(TimelineSVG.n(bend)) \(TimelineSVG.n(toX)),\(TimelineSVG.n(toY))"
                    badgeY = anchorY - lift * 0.75
                } else {
                    path = "M\(TimelineSVG.n(anchorX)),\(TimelineSVG.n(anchorY))C\(TimelineSVG.n(middleX)),\(TimelineSVG.n(anchorY)) \(TimelineSVG.n(middleX)),\(TimelineSVG.n(toY)) \(TimelineSVG.n(toX)),\(TimelineSVG.n(toY))"
                    badgeY = (anchorY + toY) / 2
                }
                out += "<path class=\"lost-link\" d=\"\(path)\" marker-end=\"url(#ah-lost)\"/>"
                out += badge(middleX, badgeY, number)
                let controlX = middleX, bend = badgeY
                if laneHeight >= 30 {
                    let caption = "\(anomaly.write ?? "?") lost to \(replacedBy)"
                    out += "<text class=\"anomaly-label\" x=\"\(TimelineSVG.n(controlX + 11))\" y=\"\(TimelineSVG.n(bend - 6))\">\(TimelineSVG.e(caption))</text>"
                }
            }
            out += "<circle class=\"ring\" cx=\"\(TimelineSVG.n(anchorX))\" cy=\"\(TimelineSVG.n(anchorY))\" r=\"9\"/>"
            if anomaly.replacedBy == nil || model.writePlaces[anomaly.replacedBy ?? ""] == nil {
                out += badge(anchorX + 12, anchorY - 12, number)
            }
            // The checker's sentence under the lanes, with a guide up to where it happened.
            let lines = wrapped[position]
            let textWidth = (lines.map(TimelineSVG.textWidth).max() ?? 0) + 20
            let textX = min(max(anchorX - 8, TimelineSVG.leftPixels), max(width - textWidth, 8))
            out += "<line class=\"guide\" x1=\"\(TimelineSVG.n(anchorX))\" y1=\"\(TimelineSVG.n(anchorY + 9))\" x2=\"\(TimelineSVG.n(anchorX))\" y2=\"\(TimelineSVG.n(row - 4))\"/>"
            out += badge(textX + 7, row, number)
            out += "<text class=\"anomaly-text\" x=\"\(TimelineSVG.n(textX + 17))\" y=\"\(TimelineSVG.n(row + 4))\">"
            for (index, line) in lines.enumerated() {
                out += index == 0 ? "<tspan>" : "<tspan x=\"\(TimelineSVG.n(textX + 17))\" dy=\"15\">"
                out += TimelineSVG.e(line) + "</tspan>"
            }
            out += "</text>"
            row += Double(lines.count) * 15 + 5
            out += "</g>\n"
        }
        if model.anomalies.count > annotated.count {
            out += "<text class=\"anomaly-text\" x=\"\(TimelineSVG.n(TimelineSVG.leftPixels))\" y=\"\(TimelineSVG.n(row + 4))\">\(TimelineSVG.e("… and \(model.anomalies.count - annotated.count) more anomalies, listed above and in report.md"))</text>\n"
        }
        out += "</g>\n"
    }

    func badge(_ cx: Double, _ cy: Double, _ number: String) -> String {
        "<circle class=\"badge\" cx=\"\(TimelineSVG.n(cx))\" cy=\"\(TimelineSVG.n(cy))\" r=\"8\"/><text class=\"badge-text\" x=\"\(TimelineSVG.n(cx))\" y=\"\(TimelineSVG.n(cy + 4))\">\(TimelineSVG.e(number))</text>"
    }
}
