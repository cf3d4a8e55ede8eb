import Foundation
import SyncLabJSON
import SyncLabHistory

extension ReportModel {
    /// Why a saved run could not be turned into a report.
    public struct ReadError: LocalizedError, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
        /// What `localizedDescription` says (the CLI prints it), instead of Foundation's
        /// "The operation could not be completed".
        public var errorDescription: String? { message }
    }

    /// Builds the model from a saved run's two files, as bytes. The trace is read a line at a
    /// time (never held parsed as a whole), and only the members the report draws are decoded.
    /// - Parameters:
    ///   - trace: `trace.jsonl`'s bytes.
    ///   - result: `result.json`'s bytes.
    /// - Complexity: O(trace length).
    public init(trace: [UInt8], result: [UInt8]) throws(ReadError) {
        let resultValue: JSONNode
        do { resultValue = try JSON5Reader.parse(bytes: result) } catch { throw ReadError(message: "result.json: \(error)") }
        guard let scenario = resultValue["scenario"]?.string, let variant = resultValue["variant"]?.string else {
            throw ReadError(message: "result.json: not a SyncLab RESULT (no scenario or variant)")
        }
        self.scenario = scenario
        self.variant = variant
        file = resultValue["file"]?.string ?? ""
        seed = resultValue["seed"]?.compactText ?? "?"
        passed = resultValue["passed"]?.bool ?? false
        settled = resultValue["settled"]?.bool ?? false
        events = resultValue["events"]?.compactText ?? "?"
        endMicroseconds = resultValue["simulatedEnd_us"]?.int64 ?? 0
        metrics = (resultValue["metrics"]?.members ?? []).map { ($0.key, $0.value.compactText) }
        anomalies = (resultValue["anomalies"]?.elements ?? []).enumerated().map { index, value in
            Anomaly(number: index + 1, kind: value["kind"]?.string ?? "?", store: value["store"]?.string ?? "",
                    account: value["account"]?.string ?? "", item: value["item"]?.string ?? "", field: value["field"]?.string,
                    device: value["device"]?.string ?? "", at: value["at_us"]?.int64 ?? 0,
                    explanation: value["explanation"]?.string ?? "", write: value["write"]?.string,
                    replacedBy: value["replacedBy"]?.string, limit: value["limit"]?.string)
        }
        traceDigest = resultValue["traceDigest"]?.string
        folder = nil
        expectations = (resultValue["expectations"]?.elements ?? []).map { value in
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

        try readTrace(trace)
    }

    /// Trace events no report draws: passed over unparsed (they are most of a trace).
    static let unusedEvents: [TraceEventKind] = [.visible, .log, .notify, .timer, .note, .launch, .heal, .skipped]

    private static let evPrefix = Array("\"ev\":\"".utf8)

    /// The UTF-8 names of `unusedEvents`.
    private static let unusedEventNames = unusedEvents.map { Array($0.rawValue.utf8) }

    /// Calls `body` with each line of `trace.jsonl` a report draws: blank lines and lines of
    /// `unusedEvents` are passed over without being read.
    /// - Throws: the first line that is not a JSON object, naming its line number.
    /// - Complexity: O(n) in the trace's length.
    static func forEachLine(_ trace: [UInt8], _ body: (TraceLine) -> Void) throws(ReadError) {
        var line = TraceLine(trace: trace)
        var start = 0, lineNumber = 0
        while start < trace.count {
            lineNumber += 1
            let end = lineEnd(trace, from: start)
            let range = start..<end
            start = end + 1
            if isBlank(trace, range) || isUnused(trace, range) { continue }
            do { try line.read(range) } catch {
                throw ReadError(message: "trace.jsonl line \(lineNumber): \(error)")
            }
            body(line)
        }
    }

    /// The index of the next line break at or after `start`, or the end: `memchr`, because a
    /// byte-by-byte search over hundreds of megabytes of trace was a tenth of the report's time.
    private static func lineEnd(_ trace: [UInt8], from start: Int) -> Int {
        trace.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, start < buffer.count,
                  let found = memchr(base + start, 0x0A, buffer.count - start) else { return buffer.count }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    private static func isBlank(_ trace: [UInt8], _ range: Range<Int>) -> Bool {
        trace[range].allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    /// Is the line `{"t_us":N,"ev":"NAME",…` with NAME one of `unusedEvents`? Only the line's
    /// first bytes are looked at; a line in any other shape is read.
    private static func isUnused(_ trace: [UInt8], _ range: Range<Int>) -> Bool {
        let prefix = evPrefix
        var index = range.lowerBound
        let searchEnd = min(range.upperBound, range.lowerBound + 40)
        while index < searchEnd && trace[index] != UInt8(ascii: ",") { index += 1 }
        index += 1
        guard index + prefix.count < range.upperBound, trace[index..<(index + prefix.count)].elementsEqual(prefix) else { return false }
        let nameStart = index + prefix.count
        var nameEnd = nameStart
        while nameEnd < range.upperBound && trace[nameEnd] != UInt8(ascii: "\"") { nameEnd += 1 }
        let name = trace[nameStart..<nameEnd]
        return unusedEventNames.contains { $0.count == name.count && $0.elementsEqual(name) }
    }

    /// The lanes, intervals, operations, traffic and markers of the report, from the trace.
    private mutating func readTrace(_ trace: [UInt8]) throws(ReadError) {
        // Device and store names are interned as they are first seen: traffic lines then find
        // their message by small integers instead of hashing two strings per lookup (a fifth of
        // reading the day's 6 M traffic lines). A name's number never changes, so lookups match
        // exactly when the names do.
        var deviceNumbers: [String: Int] = [:]
        var laneOfDevice: [Int?] = []
        var storeNames: [String] = []
        // Open intervals and in-flight traffic, keyed for lookup only.
        var offlineSince: [Int: Int64] = [:]
        var crashedSince: [Int: Int64] = [:]
        var openMessage: [TrafficKey: Int] = [:]
        var openPushes: [TrafficKey: [Int]] = [:]
        var lastTime: Int64 = 0

        func deviceNumber(_ name: String) -> Int {
            if let number = deviceNumbers[name] { return number }
            deviceNumbers[name] = laneOfDevice.count
            laneOfDevice.append(nil)
            return laneOfDevice.count - 1
        }
        func storeNumber(_ name: String) -> Int {
            if let number = storeNames.firstIndex(of: name) { return number }
            storeNames.append(name)
            return storeNames.count - 1
        }
        func trafficKey(_ line: TraceLine, device: Int, request: Int64) -> TrafficKey {
            TrafficKey(device: device, store: storeNumber(line.string("store") ?? ""), request: request)
        }

        try ReportModel.forEachLine(trace) { line in
            guard let event = line.eventKind() else { return }
            let time = line.int64("t_us") ?? lastTime
            lastTime = max(lastTime, time)
            let deviceName = line.string("device")
            // A missing device is the empty name, as a key always had it.
            let device = deviceNumber(deviceName ?? "")
            let lane = deviceName == nil ? nil : laneOfDevice[device]
            func messageKey(_ line: TraceLine) -> TrafficKey { trafficKey(line, device: device, request: line.int64("req") ?? -1) }
            switch event {
            case .run:
                description = line.string("description") ?? ""
                for device in line.node("devices")?.elements ?? [] {
                    let name = device["id"]?.string ?? "?"
                    let online = device["online"]?.bool ?? true
                    laneOfDevice[deviceNumber(name)] = lanes.count
                    if self.laneByName[name] == nil { self.laneByName[name] = lanes.count }
                    if !online { offlineSince[lanes.count] = 0 }
                    lanes.append(Lane(name: name, account: device["account"]?.string ?? "",
                                      clockOffsetMicroseconds: device["clockOffset_us"]?.int64 ?? 0,
                                      driftPpm: device["driftPpm"]?.compactText ?? "0", initiallyOnline: online))
                }
            case .offline:
                if let lane, offlineSince[lane] == nil { offlineSince[lane] = time }
            case .online:
                if let lane, let start = offlineSince.removeValue(forKey: lane) {
                    downtime.append(Interval(lane: lane, start: start, end: time, what: "offline"))
                }
            case .crash:
                if let lane, crashedSince[lane] == nil { crashedSince[lane] = time }
            case .restart:
                if let lane, let start = crashedSince.removeValue(forKey: lane) {
                    downtime.append(Interval(lane: lane, start: start, end: time, what: "crashed"))
                }
            case .op:
                guard let lane else { return }
                let write = line.string("write")
                let summary = line.string("summary")
                let op = line.string("op") ?? "?"
                operations.append(Operation(lane: lane, at: time, localAt: line.int64("local_us"), op: op, write: write,
                                            summary: summary ?? line.string("account").map { "\(op) \($0)" },
                                            outcome: line.string("outcome"), step: line.string("step") ?? ""))
                if let write { writePlaces[write] = WritePlace(lane: lane, at: time, summary: summary ?? op) }
            case .derivedWrite:
                guard let lane, let write = line.string("write") else { return }
                let why = line.string("why") ?? "engine write"
                writePlaces[write] = WritePlace(lane: lane, at: time, summary: why)
            case .clock:
                guard let lane else { return }
                let offset = line.int64("offset_us") ?? 0
                markers.append(Marker(kind: .clock, lane: lane, at: time, item: "",
                                      text: "\(line.string("op") ?? "clock"): clock now \(ReportTime.signed(offset))", writes: []))
            case .cloudOutage, .cloudThrottle:
                let until = line.int64("until_us") ?? time
                let what = event == .cloudOutage ? "cloud outage" : line.string("zone").map { "zone \($0) busy" } ?? "throttled"
                cloudIntervals.append(Interval(lane: -1, start: time, end: until, what: what))
            case .cloudClock:
                markers.append(Marker(kind: .clock, lane: nil, at: time, item: "",
                                      text: "cloud clock now \(ReportTime.signed(line.int64("offset_us") ?? 0))", writes: []))
            case .send:
                guard let lane else { return }
                var message = Message(lane: lane, store: line.string("store") ?? "", request: line.int64("req") ?? 0,
                                      kind: line.string("kind") ?? "?", bytes: line.int64("bytes") ?? 0, sentAt: time)
                if let fate = line.string("result") {
                    message.requestFate = fate
                } else {
                    openMessage[messageKey(line)] = messages.count
                }
                messages.append(message)
            case .cloudReceive:
                if let index = openMessage[messageKey(line)] { messages[index].cloudAt = time }
            case .respond:
                guard let index = openMessage[messageKey(line)] else { return }
                messages[index].respondedAt = time
                messages[index].result = line.string("result")
                if let delivery = line.string("delivery") {
                    messages[index].responseFate = delivery
                    openMessage[messageKey(line)] = nil
                }
            case .receive:
                let key = messageKey(line)
                guard let index = openMessage[key] else { return }
                messages[index].deviceAt = time
                messages[index].result = line.string("result") ?? messages[index].result
                openMessage[key] = nil
            case .dropped:
                let key = messageKey(line)
                guard let index = openMessage[key] else { return }
                if messages[index].cloudAt == nil { messages[index].requestFate = "dropped" } else { messages[index].responseFate = "dropped" }
                openMessage[key] = nil
            case .timeout:
                let key = messageKey(line)
                guard let index = openMessage[key] else { return }
                if messages[index].cloudAt == nil && messages[index].requestFate == nil { messages[index].requestFate = "timeout" }
                if messages[index].responseFate == nil && messages[index].deviceAt == nil { messages[index].responseFate = "timeout" }
                openMessage[key] = nil
            case .push:
                guard let lane else { return }
                let store = line.string("store") ?? ""
                let delivery = line.string("delivery")
                if delivery == nil { openPushes[TrafficKey(device: device, store: storeNumber(store), request: -1), default: []].append(pushes.count) }
                pushes.append(Push(lane: lane, store: store, sentAt: time, arrivedAt: nil, fate: delivery))
            case .pushReceive:
                guard lane != nil else { return }
                let key = trafficKey(line, device: device, request: -1)
                if var waiting = openPushes[key], !waiting.isEmpty {
                    pushes[waiting.removeFirst()].arrivedAt = time
                    openPushes[key] = waiting
                }
            case .conflict, .conflictShown:
                let writes = (line.node("writes")?.elements ?? []).compactMap(\.string)
                let detail = line.string("detail") ?? ""
                let item = ReportModel.itemLabel(line)
                let where_ = lane == nil ? "the cloud" : (deviceName ?? "?")
                let text = event == .conflict
                    ? "conflict on \(item) detected by \(where_) between \(writes.joined(separator: ", "))\(detail.isEmpty ? "" : ": \(detail)")"
                    : "\(where_) was shown the conflict on \(item) (\(writes.joined(separator: ", ")))\(detail.isEmpty ? "" : ": \(detail)")"
                markers.append(Marker(kind: event == .conflict ? .conflict : .conflictShown, lane: lane, at: time, item: item, text: text, writes: writes))
            case .rejected:
                let write = line.string("write") ?? "?"
                let limit = line.string("limit")
                let item = ReportModel.itemLabel(line)
                markers.append(Marker(kind: .rejected, lane: lane, at: time, item: item,
                                      text: "\(write) on \(item) rejected: \(line.string("error") ?? "?")\(limit.map { " (limit \($0))" } ?? "")", writes: [write]))
            case .lastWriterWins:
                let chosen = line.string("chosen") ?? "?", over = line.string("over") ?? "?"
                let item = ReportModel.itemLabel(line)
                markers.append(Marker(kind: .lastWriterWins, lane: lane, at: time, item: item,
                                      text: "last writer wins on \(item): kept \(chosen) over \(over) (\(line.string("rule") ?? "?"))", writes: [chosen, over]))
            case .discarded:
                let write = line.string("write") ?? "?"
                let item = ReportModel.itemLabel(line)
                markers.append(Marker(kind: .discarded, lane: lane, at: time, item: item,
                                      text: "\(write) on \(item) discarded: \(line.string("reason") ?? "?")", writes: [write]))
            case .assert:
                if line.bool("passed") == false {
                    markers.append(Marker(kind: .assertFailed, lane: lane, at: time, item: "",
                                          text: "assert failed: \(line.string("message") ?? "")", writes: []))
                }
            case .end, .launch, .heal, .skipped, .cloudExpireTokens, .timer, .notify, .log, .visible, .note:
                return
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
        indexDowntime()
    }

    /// `item` or `item.field` from a trace line.
    static func itemLabel(_ line: TraceLine) -> String {
        let item = line.string("item") ?? "?"
        guard let field = line.string("field") else { return item }
        return "\(item).\(field)"
    }
}

/// A request in flight (device, store, request number), or a device's pushes of a store
/// (request -1): how trace lines about the same traffic find each other. Devices and stores by
/// the number `readTrace` gave their names.
private struct TrafficKey: Hashable {
    var device: Int
    var store: Int
    var request: Int64
}
