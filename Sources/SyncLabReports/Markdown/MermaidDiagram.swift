/// The Mermaid `sequenceDiagram` of a run's key events, short enough to paste into a design
/// document or a pull request: the user writes, offline periods, conflicts and decisions, the
/// anomalies, and the messages that tell each anomaly's story (`TrafficStory`).
enum MermaidDiagram {
    /// Lines of the diagram at most (past this, the least important events are left out).
    static let linesMax = 60
    /// Messages and pushes at most, of those an anomaly's story needs.
    static let messagesMax = 24

    struct Entry {
        var at: Int64
        var sequence: Int
        /// Lower is more important.
        var priority: Int
        var line: () -> String
    }

    static func render(_ model: ReportModel) -> String {
        let importantWrites = model.anomalyWrites
        let story = TrafficStory(model: model)
        var entries: [Entry] = []
        var usedLanes = Set<Int>()
        var usesCloud = false
        // The line is built only if the entry is chosen: a busy day has tens of thousands of
        // candidates, and escaping each one's text cost more than the rest of the report.
        func add(_ at: Int64, _ priority: Int, _ line: @escaping @autoclosure () -> String) {
            entries.append(Entry(at: at, sequence: entries.count, priority: priority, line: line))
        }
        func id(_ lane: Int) -> String { "D\(lane)" }
        func when(_ time: Int64) -> String { ReportTime.format(time) }
        func text(_ value: String) -> String { MarkdownText.mermaid(value) }

        for operation in model.operations {
            guard let write = operation.write else { continue }
            usedLanes.insert(operation.lane)
            let important = importantWrites.contains(write)
            var label = "\(when(operation.at)) \(write) \(operation.summary ?? operation.op)"
            if let outcome = operation.outcome, outcome != "accepted" { label += " (\(outcome))" }
            add(operation.at, important ? 1 : 3, "    \(id(operation.lane))->>\(id(operation.lane)): \(text(label))")
        }
        for interval in model.downtime {
            usedLanes.insert(interval.lane)
            add(interval.start, 2, "    Note over \(id(interval.lane)): \(text("\(when(interval.start)) \(interval.what) (until \(when(interval.end)))"))")
            if interval.end < model.endMicroseconds {
                add(interval.end, 2, "    Note over \(id(interval.lane)): \(text("\(when(interval.end)) back \(interval.what == "offline" ? "online" : "up")"))")
            }
        }
        for marker in model.markers {
            let priority: Int
            switch marker.kind {
            case .conflict, .rejected, .discarded, .assertFailed: priority = 1
            case .lastWriterWins, .conflictShown: priority = 2
            case .clock: priority = 3
            }
            if let lane = marker.lane { usedLanes.insert(lane) } else { usesCloud = true }
            let over = marker.lane.map(id) ?? "C"
            add(marker.at, priority, "    Note over \(over): \(text("\(when(marker.at)) \(marker.text)"))")
        }
        var messages = 0
        for (index, message) in model.messages.enumerated() where story.messages.contains(index) && messages < messagesMax {
            messages += 1
            usedLanes.insert(message.lane)
            usesCloud = true
            let device = id(message.lane)
            if let cloudAt = message.cloudAt {
                add(message.sentAt, 4, "    \(device)->>C: \(text("\(when(message.sentAt)) \(message.store) \(message.kind), arrives \(when(cloudAt))"))")
                if let respondedAt = message.respondedAt {
                    if let deviceAt = message.deviceAt {
                        add(respondedAt, 4, "    C-->>\(device): \(text("\(message.result ?? "answer"), arrives \(when(deviceAt))"))")
                    } else {
                        add(respondedAt, 4, "    C--x\(device): \(text("\(message.result ?? "answer") \(message.responseFate ?? "not delivered")"))")
                    }
                }
            } else {
                add(message.sentAt, 4, "    \(device)-xC: \(text("\(when(message.sentAt)) \(message.store) \(message.kind): \(message.requestFate ?? "not delivered")"))")
            }
        }
        for (index, push) in model.pushes.enumerated() where story.pushes.contains(index) && messages < messagesMax {
            messages += 1
            usedLanes.insert(push.lane)
            usesCloud = true
            if let arrivedAt = push.arrivedAt {
                add(push.sentAt, 4, "    C--)\(id(push.lane)): \(text("\(when(push.sentAt)) push \(push.store), arrives \(when(arrivedAt))"))")
            } else {
                add(push.sentAt, 4, "    C--x\(id(push.lane)): \(text("\(when(push.sentAt)) push \(push.store): \(push.fate ?? "not delivered")"))")
            }
        }
        for anomaly in model.anomalies {
            let lane = model.laneIndex(anomaly.device)
            if let lane { usedLanes.insert(lane) } else { usesCloud = true }
            var label = "\(anomaly.number). \(anomaly.kind) \(anomaly.itemLabel)"
            if let write = anomaly.write { label += ": \(write)" }
            if let replacedBy = anomaly.replacedBy { label += " lost to \(replacedBy)" }
            if let limit = anomaly.limit { label += " (limit \(limit))" }
            add(anomaly.at, 0, "    Note over \(lane.map(id) ?? "C"): \(text(label))")
        }

        var chosen = entries
        var omitted = 0
        if chosen.count > linesMax {
            chosen.sort { ($0.priority, $0.at, $0.sequence) < ($1.priority, $1.at, $1.sequence) }
            omitted = chosen.count - linesMax
            chosen = Array(chosen.prefix(linesMax))
        }
        chosen.sort { ($0.at, $0.sequence) < ($1.at, $1.sequence) }

        var out = "```mermaid\nsequenceDiagram\n"
        let above = (model.lanes.count + 1) / 2
        var cloudDeclared = false
        for lane in 0..<model.lanes.count where usedLanes.contains(lane) {
            if lane >= above && usesCloud && !cloudDeclared { out += "    participant C as cloud\n"; cloudDeclared = true }
            out += "    participant \(id(lane)) as \(MarkdownText.mermaid(model.lanes[lane].name, limit: 24))\n"
        }
        if usesCloud && !cloudDeclared { out += "    participant C as cloud\n" }
        if chosen.isEmpty {
            out += "    Note over C: nothing happened\n"
        }
        for entry in chosen { out += entry.line() + "\n" }
        if omitted > 0, let anyLane = usedLanes.min() {
            out += "    Note over \(usesCloud ? "C" : id(anyLane)): \(omitted) less important events left out (see timeline.html)\n"
        }
        out += "```\n"
        return out
    }
}
