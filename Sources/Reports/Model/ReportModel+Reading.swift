import JSONText

extension ReportModel {
    /// Why a saved run could not be turned into a report.
    public struct ReadError: Error, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Builds the model from a saved run's two files, as bytes.
    /// - Parameters:
    ///   - trace: `trace.jsonl`'s bytes.
    ///   - result: `result.json`'s bytes.
    /// - Complexity: O(trace length).
    public init(trace: [UInt8], result: [UInt8]) throws(ReadError) {
        let lines = try ReportModel.traceLines(trace)
        let resultValue: JSONNode
        do { resultValue = try JSON5Reader.parse(bytes: result) } catch { throw ReadError(message: "result.json: \(error)") }
        try self.init(lines: lines, result: resultValue)
    }

    /// Trace events no report draws: passed over unparsed (they are most of a trace).
    static let unusedEvents = ["visible", "log", "notify", "timer", "note", "launch", "heal", "skipped"]

    /// The `"ev":"NAME"` bytes of `unusedEvents`, as the trace writer puts them after `t_us`.
    private static let unusedEventPatterns = unusedEvents.map { Array("\"ev\":\"\($0)\"".utf8) }

    /// Parses `trace.jsonl`: one JSON value a line, blank lines ignored, lines of `unusedEvents`
    /// passed over without being parsed.
    /// - Complexity: O(n) in the trace's length.
    static func traceLines(_ trace: [UInt8]) throws(ReadError) -> [JSONNode] {
        var lines: [JSONNode] = []
        var start = 0, lineNumber = 0
        while start < trace.count {
            lineNumber += 1
            var end = start
            while end < trace.count && trace[end] != 0x0A { end += 1 }
            let line = trace[start..<end]
            start = end + 1
            if isBlank(line) || isUnused(line) { continue }
            do { lines.append(try JSON5Reader.parse(bytes: Array(line))) } catch {
                throw ReadError(message: "trace.jsonl line \(lineNumber): \(error)")
            }
        }
        return lines
    }

    private static func isBlank(_ line: ArraySlice<UInt8>) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    /// Is `line` `{"t_us":N,"ev":"NAME",…` with NAME one of `unusedEvents`? Only the line's first
    /// bytes are looked at; a line in any other shape is parsed.
    private static func isUnused(_ line: ArraySlice<UInt8>) -> Bool {
        guard let comma = line.prefix(40).firstIndex(of: UInt8(ascii: ",")) else { return false }
        let rest = line[(comma + 1)...]
        return unusedEventPatterns.contains { rest.starts(with: $0) }
    }

    /// Builds the model from parsed trace lines and the parsed RESULT.
    public init(lines: [JSONNode], result: JSONNode) throws(ReadError) {
        guard let scenario = result["scenario"]?.string, let variant = result["variant"]?.string else {
            throw ReadError(message: "result.json: not a SyncLab RESULT (no scenario or variant)")
        }
        self.scenario = scenario
        self.variant = variant
        file = result["file"]?.string ?? ""
        seed = result["seed"]?.compactText ?? "?"
        passed = result["passed"]?.bool ?? false
        settled = result["settled"]?.bool ?? false
        events = result["events"]?.compactText ?? "?"
        endMicroseconds = result["simulatedEnd_us"]?.int64 ?? 0
        metrics = (result["metrics"]?.members ?? []).map { ($0.key, $0.value.compactText) }
        anomalies = (result["anomalies"]?.elements ?? []).enumerated().map { index, value in
            Anomaly(number: index + 1, kind: value["kind"]?.string ?? "?", store: value["store"]?.string ?? "",
                    account: value["account"]?.string ?? "", item: value["item"]?.string ?? "", field: value["field"]?.string,
                    device: value["device"]?.string ?? "", at: value["at_us"]?.int64 ?? 0,
                    explanation: value["explanation"]?.string ?? "", write: value["write"]?.string,
                    replacedBy: value["replacedBy"]?.string, limit: value["limit"]?.string)
        }
        expectations = (result["expectations"]?.elements ?? []).map { value in
            Expectation(name: value["name"]?.string ?? "?", wanted: value["wanted"]?.compactText ?? "null",
                        actual: value["actual"]?.compactText ?? "null", passed: value["passed"]?.bool ?? false)
        }

        description = ""
        lanes = []
        downtime = []
        cloudIntervals = []
        operations = []
        messages = []
        pushes = []
        markers = []
        writePlaces = [:]

        var laneByName: [String: Int] = [:]
        // Open intervals and in-flight traffic, keyed for lookup only.
        var offlineSince: [Int: Int64] = [:]
        var crashedSince: [Int: Int64] = [:]
        var openMessage: [String: Int] = [:]
        var openPushes: [String: [Int]] = [:]
        var lastTime: Int64 = 0

        func messageKey(_ line: JSONNode) -> String {
            "\(line["device"]?.string ?? "")\u{1}\(line["store"]?.string ?? "")\u{1}\(line["req"]?.compactText ?? "")"
        }

        for line in lines {
            guard let event = line["ev"]?.string else { continue }
            let time = line["t_us"]?.int64 ?? lastTime
            lastTime = max(lastTime, time)
            let deviceName = line["device"]?.string
            let lane = deviceName.flatMap { laneByName[$0] }
            switch event {
            case "run":
                description = line["description"]?.string ?? ""
                for device in line["devices"]?.elements ?? [] {
                    let name = device["id"]?.string ?? "?"
                    let online = device["online"]?.bool ?? true
                    laneByName[name] = lanes.count
                    if !online { offlineSince[lanes.count] = 0 }
                    lanes.append(Lane(name: name, account: device["account"]?.string ?? "",
                                      clockOffsetMicroseconds: device["clockOffset_us"]?.int64 ?? 0,
                                      driftPpm: device["driftPpm"]?.compactText ?? "0", initiallyOnline: online))
                }
            case "offline":
                if let lane, offlineSince[lane] == nil { offlineSince[lane] = time }
            case "online":
                if let lane, let start = offlineSince.removeValue(forKey: lane) {
                    downtime.append(Interval(lane: lane, start: start, end: time, what: "offline"))
                }
            case "crash":
                if let lane, crashedSince[lane] == nil { crashedSince[lane] = time }
            case "restart":
                if let lane, let start = crashedSince.removeValue(forKey: lane) {
                    downtime.append(Interval(lane: lane, start: start, end: time, what: "crashed"))
                }
            case "op":
                guard let lane else { continue }
                let write = line["write"]?.string
                let summary = line["summary"]?.string
                let op = line["op"]?.string ?? "?"
                operations.append(Operation(lane: lane, at: time, localAt: line["local_us"]?.int64, op: op, write: write,
                                            summary: summary ?? line["account"]?.string.map { "\(op) \($0)" },
                                            outcome: line["outcome"]?.string, step: line["step"]?.string ?? ""))
                if let write { writePlaces[write] = WritePlace(lane: lane, at: time, summary: summary ?? op) }
            case "derivedWrite":
                guard let lane, let write = line["write"]?.string else { continue }
                let why = line["why"]?.string ?? "engine write"
                writePlaces[write] = WritePlace(lane: lane, at: time, summary: why)
            case "clock":
                guard let lane else { continue }
                let offset = line["offset_us"]?.int64 ?? 0
                markers.append(Marker(kind: .clock, lane: lane, at: time, item: "",
                                      text: "\(line["op"]?.string ?? "clock"): clock now \(ReportTime.signed(offset))", writes: []))
            case "cloudOutage", "cloudThrottle":
                let until = line["until_us"]?.int64 ?? time
                cloudIntervals.append(Interval(lane: -1, start: time, end: until, what: event == "cloudOutage" ? "cloud outage" : "throttled"))
            case "cloudClock":
                markers.append(Marker(kind: .clock, lane: nil, at: time, item: "",
                                      text: "cloud clock now \(ReportTime.signed(line["offset_us"]?.int64 ?? 0))", writes: []))
            case "send":
                guard let lane else { continue }
                var message = Message(lane: lane, store: line["store"]?.string ?? "", request: line["req"]?.int64 ?? 0,
                                      kind: line["kind"]?.string ?? "?", bytes: line["bytes"]?.int64 ?? 0, sentAt: time)
                if let fate = line["result"]?.string {
                    message.requestFate = fate
                } else {
                    openMessage[messageKey(line)] = messages.count
                }
                messages.append(message)
            case "cloudReceive":
                if let index = openMessage[messageKey(line)] { messages[index].cloudAt = time }
            case "respond":
                guard let index = openMessage[messageKey(line)] else { continue }
                messages[index].respondedAt = time
                messages[index].result = line["result"]?.string
                if let delivery = line["delivery"]?.string {
                    messages[index].responseFate = delivery
                    openMessage[messageKey(line)] = nil
                }
            case "receive":
                let key = messageKey(line)
                guard let index = openMessage[key] else { continue }
                messages[index].deviceAt = time
                messages[index].result = line["result"]?.string ?? messages[index].result
                openMessage[key] = nil
            case "dropped":
                let key = messageKey(line)
                guard let index = openMessage[key] else { continue }
                if messages[index].cloudAt == nil { messages[index].requestFate = "dropped" } else { messages[index].responseFate = "dropped" }
                openMessage[key] = nil
            case "timeout":
                let key = messageKey(line)
                guard let index = openMessage[key] else { continue }
                if messages[index].cloudAt == nil && messages[index].requestFate == nil { messages[index].requestFate = "timeout" }
                if messages[index].responseFate == nil && messages[index].deviceAt == nil { messages[index].responseFate = "timeout" }
                openMessage[key] = nil
            case "push":
                guard let lane else { continue }
                let store = line["store"]?.string ?? ""
                let delivery = line["delivery"]?.string
                if delivery == nil { openPushes["\(lane)\u{1}\(store)", default: []].append(pushes.count) }
                pushes.append(Push(lane: lane, store: store, sentAt: time, arrivedAt: nil, fate: delivery))
            case "pushReceive":
                guard let lane else { continue }
                let key = "\(lane)\u{1}\(line["store"]?.string ?? "")"
                if var waiting = openPushes[key], !waiting.isEmpty {
                    pushes[waiting.removeFirst()].arrivedAt = time
                    openPushes[key] = waiting
                }
            case "conflict", "conflictShown":
                let writes = (line["writes"]?.elements ?? []).compactMap(\.string)
                let detail = line["detail"]?.string ?? ""
                let item = ReportModel.itemLabel(line)
                let where_ = lane == nil ? "the cloud" : (deviceName ?? "?")
                let text = event == "conflict"
                    ? "conflict on \(item) detected by \(where_) between \(writes.joined(separator: ", "))\(detail.isEmpty ? "" : ": \(detail)")"
                    : "\(where_) was shown the conflict on \(item) (\(writes.joined(separator: ", ")))\(detail.isEmpty ? "" : ": \(detail)")"
                markers.append(Marker(kind: event == "conflict" ? .conflict : .conflictShown, lane: lane, at: time, item: item, text: text, writes: writes))
            case "rejected":
                let write = line["write"]?.string ?? "?"
                let limit = line["limit"]?.string
                let item = ReportModel.itemLabel(line)
                markers.append(Marker(kind: .rejected, lane: lane, at: time, item: item,
                                      text: "\(write) on \(item) rejected: \(line["error"]?.string ?? "?")\(limit.map { " (limit \($0))" } ?? "")", writes: [write]))
            case "lastWriterWins":
                let chosen = line["chosen"]?.string ?? "?", over = line["over"]?.string ?? "?"
                let item = ReportModel.itemLabel(line)
                markers.append(Marker(kind: .lastWriterWins, lane: lane, at: time, item: item,
                                      text: "last writer wins on \(item): kept \(chosen) over \(over) (\(line["rule"]?.string ?? "?"))", writes: [chosen, over]))
            case "discarded":
                let write = line["write"]?.string ?? "?"
                let item = ReportModel.itemLabel(line)
                markers.append(Marker(kind: .discarded, lane: lane, at: time, item: item,
                                      text: "\(write) on \(item) discarded: \(line["reason"]?.string ?? "?")", writes: [write]))
            case "assert":
                if line["passed"]?.bool == false {
                    markers.append(Marker(kind: .assertFailed, lane: lane, at: time, item: "",
                                          text: "assert failed: \(line["message"]?.string ?? "")", writes: []))
                }
            default:
                continue
            }
        }
        let end = max(endMicroseconds, lastTime)
        endMicroseconds = end
        for lane in offlineSince.keys.sorted() {
            downtime.append(Interval(lane: lane, start: offlineSince[lane] ?? 0, end: end, what: "offline"))
        }
        for lane in crashedSince.keys.sorted() {
            downtime.append(Interval(lane: lane, start: crashedSince[lane] ?? 0, end: end, what: "crashed"))
        }
        downtime.sort { ($0.lane, $0.start, $0.what) < ($1.lane, $1.start, $1.what) }
    }

    /// `item` or `item.field` from a trace line.
    static func itemLabel(_ line: JSONNode) -> String {
        let item = line["item"]?.string ?? "?"
        guard let field = line["field"]?.string else { return item }
        return "\(item).\(field)"
    }
}
