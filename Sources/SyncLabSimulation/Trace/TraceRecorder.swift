import SyncLabKernel
import SyncLabJSON
import SyncLabProtocol
import SyncLabScenario
import SyncLabHistory
import SyncLabResult

/// Writes `trace.jsonl`: one JSON object per line, keys in a fixed order (`t_us`, `ev`, then the
/// event's own fields), so the same run gives the same bytes in every process.
struct TraceRecorder {
    let enabled: Bool
    /// The trace, or with a `file`, the part not yet written to it.
    private(set) var bytes: [UInt8] = []
    /// Where the trace streams to, if anywhere: then `bytes` is only a buffer.
    let file: TraceFileWriter?
    /// Names for write ids and accounts (the recorder cannot borrow the history while it is written).
    let deviceNames: [String]
    let accountNames: [String]

    init(enabled: Bool, deviceNames: [String], accountNames: [String], file: TraceFileWriter? = nil) {
        self.enabled = enabled; self.deviceNames = deviceNames; self.accountNames = accountNames; self.file = file
        if file != nil { bytes.reserveCapacity(TraceFileWriter.chunkBytes + 4096) }
    }

    /// Writes what is buffered to the file (if streaming).
    mutating func flush() { file?.drain(&bytes) }

    mutating func record(_ time: SimInstant, _ event: TraceEventKind, _ fields: @autoclosure () -> [(String, JSON)]) {
        guard enabled else { return }
        // The bytes of JSON.object([("t_us", …), ("ev", …)] + fields()) rendered compact, written
        // member by member: a line is not worth building an object tree and a merged array for.
        bytes.append(contentsOf: #"{"t_us":"#.utf8)
        JSON.int(time.microseconds).write(into: &bytes)
        bytes.append(contentsOf: #","ev":"#.utf8)
        JSON.writeString(event.rawValue, into: &bytes)
        for (key, value) in fields() {
            bytes.append(UInt8(ascii: ","))
            JSON.writeString(key, into: &bytes)
            bytes.append(UInt8(ascii: ":"))
            value.write(into: &bytes)
        }
        bytes.append(contentsOf: "}\n".utf8)
        if let file, bytes.count >= TraceFileWriter.chunkBytes { file.drain(&bytes) }
    }

    /// Starts a transport line written field by field straight into the buffer (no array of
    /// fields, no JSON values: these lines are most of a trace): `{"t_us":…,"ev":…,"device":…,
    /// "store":…` and `"req":…` when given. Keys and event names are plain identifiers, written
    /// as they are. Call only when `enabled`; finish with `end()`.
    mutating func begin(_ time: SimInstant, _ event: TraceEventKind, device: String, store: Store, request: UInt64? = nil) {
        bytes.append(contentsOf: #"{"t_us":"#.utf8)
        JSON.int(time.microseconds).write(into: &bytes)
        bytes.append(contentsOf: #","ev":""#.utf8)
        bytes.append(contentsOf: event.rawValue.utf8) // a plain identifier: nothing to escape
        bytes.append(UInt8(ascii: "\""))
        add("device", device)
        add("store", store.rawValue)
        if let request { add("req", Int64(request)) }
    }

    /// One string field of the line `begin` started.
    mutating func add(_ key: StaticString, _ value: String) {
        writeKey(key)
        JSON.writeString(value, into: &bytes)
    }

    /// One integer field of the line `begin` started.
    mutating func add(_ key: StaticString, _ value: Int64) {
        writeKey(key)
        JSON.int(value).write(into: &bytes)
    }

    /// One field of any JSON value, of the line `begin` started.
    mutating func add(_ key: StaticString, _ value: JSON) {
        writeKey(key)
        value.write(into: &bytes)
    }

    /// Ends the line `begin` started.
    mutating func end() {
        bytes.append(contentsOf: "}\n".utf8)
        if let file, bytes.count >= TraceFileWriter.chunkBytes { file.drain(&bytes) }
    }

    private mutating func writeKey(_ key: StaticString) {
        bytes.append(contentsOf: #",""#.utf8)
        append(key)
        bytes.append(contentsOf: #"":"#.utf8)
    }

    private mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// The first line: everything a report needs to draw the run without the scenario file.
    mutating func header(_ run: ScenarioRun) {
        record(.start, .run, [
            ("scenario", .string(run.scenarioName)), ("variant", .string(run.variant)), ("seed", .uint(run.seed)),
            ("accounts", .array(run.accounts.map { .string($0) })),
            ("devices", .array(run.devices.map { device in
                JSON.object([("id", .string(device.id)), ("account", .string(run.accounts[device.account])),
                             ("clockOffset_us", .int(device.clockOffset.microseconds)), ("driftPpm", .double(device.driftPpm)),
                             ("online", .bool(device.online))])
            })),
            ("steps", .int(Int64(run.steps.count))),
            // Added for the reports (timeline.html, report.md show it under the title).
            ("description", .string(run.description)),
        ])
    }

    mutating func operation(_ time: SimInstant, _ device: String, _ op: String, summary: String, write: String, outcome: OperationOutcome, local: LocalInstant, source: String) {
        let outcomeText: String
        switch outcome {
        case .accepted: outcomeText = "accepted"
        case .unchanged: outcomeText = "unchanged"
        case .rejected(let error): outcomeText = "rejected: \(error)"
        }
        record(time, .op, [("device", .string(device)), ("op", .string(op)), ("write", .string(write)), ("summary", .string(summary)),
                            ("outcome", .string(outcomeText)), ("local_us", .int(local.microseconds)), ("step", .string(source))])
    }

    mutating func notification(_ time: SimInstant, _ device: String, _ notification: AppNotification) {
        record(time, .notify, [("device", .string(device)), ("store", .string(notification.store.rawValue)),
                                ("reason", .string(notification.reason)), ("items", .array(notification.items.map { .string($0) }))])
    }

    mutating func log(_ time: SimInstant, _ device: String?, _ store: Store, _ event: String, _ details: [(String, String)]) {
        guard enabled else { return }
        // Written straight into the buffer: engines log on most steps.
        begin(time, .log, device: device ?? "cloud", store: store)
        add("event", event)
        bytes.append(contentsOf: #","details":{"#.utf8)
        for (index, detail) in details.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            JSON.writeString(detail.0, into: &bytes)
            bytes.append(UInt8(ascii: ":"))
            JSON.writeString(detail.1, into: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        end()
    }

    mutating func observation(_ time: SimInstant, _ device: String?, _ observation: Observation) {
        guard enabled else { return }
        // Locals, so the argument closures below do not read `self` while `record` mutates it.
        let deviceNames = self.deviceNames, accountNames = self.accountNames
        let who: JSON = device.map { .string($0) } ?? .string("cloud")
        func item(_ key: ItemKey) -> [(String, JSON)] {
            var fields: [(String, JSON)] = [("store", .string(key.store.rawValue)), ("account", .string(History.accountName(key.account, accountNames: accountNames))), ("item", .string(key.name))]
            if !key.field.isEmpty { fields.append(("field", .string(key.field))) }
            return fields
        }
        func names(_ writes: [WriteID]) -> JSON { .array(writes.map { .string(History.name(of: $0, deviceNames: deviceNames)) }) }
        switch observation {
        case .visible(let key, let value, let write, let cause):
            // The commonest observation, written straight into the buffer.
            begin(time, .visible, device: device ?? "cloud", store: key.store)
            add("account", History.accountName(key.account, accountNames: accountNames))
            add("item", key.name)
            if !key.field.isEmpty { add("field", key.field) }
            add("write", write.map { .string(History.name(of: $0, deviceNames: deviceNames)) } ?? .null)
            add("value", ValueJSON.json(value))
            add("cause", cause.rawValue)
            end()
        case .derivedWrite(let write, let key, let value, let parents, let why):
            record(time, .derivedWrite, [("device", who)] + item(key) + [("write", .string(History.name(of: write, deviceNames: deviceNames))), ("parents", names(parents)),
                                                                          ("value", ValueJSON.json(value)), ("why", .string(why))])
        case .conflictDetected(let key, let writes, let detail):
            record(time, .conflict, [("device", who)] + item(key) + [("writes", names(writes)), ("detail", .string(detail))])
        case .conflictShown(let key, let writes, let detail, _):
            record(time, .conflictShown, [("device", who)] + item(key) + [("writes", names(writes)), ("detail", .string(detail))])
        case .rejected(let write, let key, let error, let limit):
            record(time, .rejected, [("device", who)] + item(key) + [("write", .string(History.name(of: write, deviceNames: deviceNames))), ("error", .string(error)), ("limit", limit.map { .string($0) } ?? .null)])
        case .lastWriterWins(let key, let chosen, let over, let rule):
            record(time, .lastWriterWins, [("device", who)] + item(key) + [("chosen", .string(History.name(of: chosen, deviceNames: deviceNames))), ("over", .string(History.name(of: over, deviceNames: deviceNames))), ("rule", .string(rule))])
        case .discarded(let write, let key, let reason):
            record(time, .discarded, [("device", who)] + item(key) + [("write", .string(History.name(of: write, deviceNames: deviceNames))), ("reason", .string(reason))])
        case .note(let text):
            record(time, .note, [("device", who), ("text", .string(text))])
        }
    }

    /// The enum case name of a message body (`upload`, `fetch`), for the trace. Spelled out
    /// rather than reflected (reflection cost a tenth of a big run), and exhaustive, so a new
    /// case is a compile error here instead of a silently wrong name.
    static func caseName(of body: ServiceRequest) -> String {
        switch body {
        case .kvs(let request):
            switch request {
            case .upload: return "upload"
            case .fetch: return "fetch"
            }
        case .documents(let request):
            switch request {
            case .fetch: return "fetch"
            case .upload: return "upload"
            case .resolve: return "resolve"
            case .replace: return "replace"
            }
        case .records(let request):
            switch request {
            case .modifyZones: return "modifyZones"
            case .modifyRecords: return "modifyRecords"
            case .fetchDatabaseChanges: return "fetchDatabaseChanges"
            case .fetchZoneChanges: return "fetchZoneChanges"
            case .queryRecords: return "queryRecords"
            case .createSubscription: return "createSubscription"
            }
        }
    }

    /// The transport error's name, or the enum case name of the response body (`changes`).
    static func resultName(_ result: ResponseResult) -> String {
        switch result {
        case .failed(let error): return error.name
        case .ok(.kvs(let response)):
            switch response {
            case .uploaded: return "uploaded"
            case .changes: return "changes"
            }
        case .ok(.documents(let response)):
            switch response {
            case .changes: return "changes"
            case .uploaded: return "uploaded"
            case .resolved: return "resolved"
            }
        case .ok(.records(let response)):
            switch response {
            case .zonesModified: return "zonesModified"
            case .recordsModified: return "recordsModified"
            case .databaseChanges: return "databaseChanges"
            case .zoneChanges: return "zoneChanges"
            case .queryResult: return "queryResult"
            case .subscribed: return "subscribed"
            case .failed: return "failed"
            }
        }
    }
}
