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
    /// The lines as they are written, handed on to `file` or kept.
    private var buffer: TraceBuffer
    /// Names for write ids and accounts (the recorder cannot borrow the history while it is written).
    let deviceNames: [String]
    let accountNames: [String]
    /// The devices' names as a line spells them, and the last line's time: a line's start is
    /// copied, not formatted (`begin`).
    private let devices: TraceDeviceFields
    /// The accounts' names as a `visible` line spells them (`"NAME`), the last `"public`.
    private let accounts: TraceDeviceFields
    private var timePrefix = TraceTimePrefix()
    /// The typed log lines' text, made once per shape.
    private var typedLogLines = TypedLogLine()

    init(enabled: Bool, deviceNames: [String], accountNames: [String], file: TraceFileWriter? = nil, chunkBytes: Int = TraceBuffer.chunkBytes) {
        self.enabled = enabled; self.deviceNames = deviceNames; self.accountNames = accountNames
        devices = TraceDeviceFields(deviceNames: deviceNames)
        accounts = TraceDeviceFields(names: accountNames, last: "public")
        buffer = TraceBuffer(file: file, chunkBytes: chunkBytes)
    }

    /// The trace, or with a `file`, nothing (it went there). Call `flush()` first.
    var bytes: [UInt8] { buffer.kept }
    /// Where the trace streams to, if anywhere.
    var file: TraceFileWriter? { buffer.file }
    /// The bytes handed on (to the file or `bytes`) and their FNV-1a digest. Call `flush()` first.
    var summary: TraceFileSummary { TraceFileSummary(bytes: buffer.sink.bytesWritten, digest: buffer.sink.digest.value, failure: buffer.sink.writeFailure) }

    /// Hands on what is buffered: to the file if streaming, else to `bytes`.
    mutating func flush() { buffer.flush() }

    mutating func record(_ time: SimInstant, _ event: TraceEventKind, _ fields: @autoclosure () -> [(String, JSON)]) {
        guard enabled else { return }
        // The bytes of JSON.object([("t_us", …), ("ev", …)] + fields()) rendered compact, written
        // member by member: a line is not worth building an object tree and a merged array for.
        buffer.beginLine()
        buffer.append(#"{"t_us":"#)
        buffer.appendDecimal(time.microseconds)
        buffer.append(#","ev":"#)
        buffer.appendString(event.rawValue)
        for (key, value) in fields() {
            buffer.append(UInt8(ascii: ","))
            buffer.appendString(key)
            buffer.append(UInt8(ascii: ":"))
            buffer.append(value)
        }
        buffer.append("}\n")
        buffer.endLine()
    }

    /// Starts a transport line written field by field straight into the buffer (no array of
    /// fields, no JSON values: these lines are most of a trace): `{"t_us":…,"ev":…,"device":…,
    /// "store":…` and `"req":…` when given, after one reserve. `device` is the device's index in
    /// the run (`deviceNames`), nil for the cloud: its spelling is copied from `devices`. Keys
    /// and event names are plain identifiers, written as they are. Call only when `enabled`;
    /// finish with `end()`.
    ///
    /// Inlined, so each call site's event (and often its store) is a constant and the switch
    /// giving its literal folds away: out of line, the switches cost 20 instructions a line.
    @inline(__always) mutating func begin(_ time: SimInstant, _ event: TraceEventKind, device: Int?, store: Store, request: UInt64? = nil) {
        buffer.beginLine()
        let name = devices.entry(device ?? devices.last)
        // A local copy: the closure may not reach into `self` while `buffer.write` mutates it.
        var prefix = timePrefix
        // `{"t_us":TIME` (32 bytes stored), `,"ev":"NAME","device":` (at most 35), the device's
        // entry, `","store":"NAME"` (at most 22), `,"req":` (7) and the request (at most 20).
        buffer.write(atMost: TraceTimePrefix.reservedBytes + 35 + name.count + 49) { target in
            var target = prefix.write(time.microseconds, to: target)
            target = TraceBuffer.copy(event.eventAndDeviceKey, to: target)
            target = TraceBuffer.copy(name.start, name.count, to: target)
            target = TraceBuffer.copy(store.storeField, to: target)
            if let request {
                target = TraceBuffer.copy(#","req":"#, to: target)
                target = TraceBuffer.decimal(request, to: target)
            }
            return target
        }
        timePrefix = prefix
    }

    /// One string field of the line `begin` started: a value of up to 16 bytes with nothing to
    /// escape (an item's name, most of them) is written with its key after one reserve.
    @inline(__always) mutating func add(_ key: StaticString, _ value: String) {
        let written = value.utf8.withContiguousStorageIfAvailable { utf8 in
            guard let source = utf8.baseAddress, utf8.count <= 16, !TraceBuffer.mayNeedEscape(source, utf8.count) else { return false }
            let byteCount = utf8.count
            buffer.write(atMost: key.utf8CodeUnitCount + byteCount + 6) { target in
                var target = TraceBuffer.copy(#",""#, to: target)
                target = TraceBuffer.copy(key, to: target)
                target = TraceBuffer.copy(#"":""#, to: target)
                target = TraceBuffer.copy(source, byteCount, to: target)
                target.pointee = UInt8(ascii: "\"")
                return target + 1
            }
            return true
        }
        if written != true {
            writeKey(key)
            buffer.appendString(value)
        }
    }

    /// One integer field of the line `begin` started.
    @inline(__always) mutating func add(_ key: StaticString, _ value: Int64) {
        buffer.write(atMost: key.utf8CodeUnitCount + 4 + 20) { target in
            var target = TraceBuffer.copy(#",""#, to: target)
            target = TraceBuffer.copy(key, to: target)
            target = TraceBuffer.copy(#"":"#, to: target)
            return TraceBuffer.decimal(value, to: target)
        }
    }

    /// One field whose value is an identifier spelled out in the code (a case name): copied
    /// with its quotes, nothing to escape (the tests check every such name).
    @inline(__always) mutating func add(_ key: StaticString, identifier value: StaticString) {
        buffer.write(atMost: key.utf8CodeUnitCount + value.utf8CodeUnitCount + 6) { target in
            var target = TraceBuffer.copy(#",""#, to: target)
            target = TraceBuffer.copy(key, to: target)
            target = TraceBuffer.copy(#"":""#, to: target)
            target = TraceBuffer.copy(value, to: target)
            target.pointee = UInt8(ascii: "\"")
            return target + 1
        }
    }

    /// `,"account":"NAME"`, copied from the account table as `History.accountName` names it.
    @inline(__always) mutating func add(account: AccountID) {
        let name = accounts.entry(account == .publicDatabase ? accounts.last : Int(account.index))
        buffer.write(atMost: 12 + name.count) { target in
            let target = TraceBuffer.copy(name.start, name.count, to: TraceBuffer.copy(#","account":"#, to: target))
            target.pointee = UInt8(ascii: "\"")
            return target + 1
        }
    }

    /// The `result` of a response: its body's case name, or the transport error's name.
    mutating func add(result: ResponseResult) {
        if let literal = Self.resultLiteral(result) { add("result", identifier: literal) } else { add("result", Self.resultName(result)) }
    }

    /// One field of any JSON value, of the line `begin` started.
    mutating func add(_ key: StaticString, _ value: JSON) {
        writeKey(key)
        buffer.append(value)
    }

    /// One write id field (`"d3:7"`, `"d3:m2"`), spelled as `History.name(of:deviceNames:)`
    /// spells it without building the String.
    mutating func add(_ key: StaticString, write: WriteID) {
        let index = Int(write.device.index)
        // The opening quote and the escaped name, as laid out for `begin`; `"?` for a device
        // not in the run.
        let name = index >= 0 && index < devices.last ? devices.entry(index) : (start: Self.unknownDevice.utf8Start, count: Self.unknownDevice.utf8CodeUnitCount)
        let suffix: StaticString = write.derived ? ":m" : ":"
        // `,"KEY":`, the name, the suffix, at most 10 digits and the closing quote: one reserve.
        buffer.write(atMost: key.utf8CodeUnitCount + 4 + name.count + 2 + 20 + 1) { target in
            var target = TraceBuffer.copy(#",""#, to: target)
            target = TraceBuffer.copy(#"":"#, to: TraceBuffer.copy(key, to: target))
            target = TraceBuffer.copy(name.start, name.count, to: target)
            target = TraceBuffer.decimal(UInt64(write.sequence), to: TraceBuffer.copy(suffix, to: target))
            target.pointee = UInt8(ascii: "\"")
            return target + 1
        }
    }

    private static var unknownDevice: StaticString { #""?"# }

    /// Ends the line `begin` started.
    @inline(__always) mutating func end() {
        buffer.append("}\n")
        buffer.endLine()
    }

    @inline(__always) private mutating func writeKey(_ key: StaticString) {
        buffer.write(atMost: key.utf8CodeUnitCount + 4) { target in
            let target = TraceBuffer.copy(#",""#, to: target)
            return TraceBuffer.copy(#"":"#, to: TraceBuffer.copy(key, to: target))
        }
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

    mutating func notification(_ time: SimInstant, _ device: Int, _ notification: AppNotification) {
        guard enabled else { return }
        // One per device told of a change: written straight into the buffer.
        begin(time, .notify, device: device, store: notification.store)
        add("reason", notification.reason)
        if notificationItems(notification.items) { return }
        writeKey("items")
        buffer.append(UInt8(ascii: "["))
        notification.items.withUnsafeBufferPointer { items in
            for index in items.indices {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                buffer.appendString(items[index])
            }
        }
        buffer.append(UInt8(ascii: "]"))
        end()
    }

    mutating func log(_ time: SimInstant, _ device: Int?, _ store: Store, _ event: String, _ details: [(String, String)]) {
        guard enabled else { return }
        // Written straight into the buffer: engines log on most steps.
        begin(time, .log, device: device, store: store)
        add("event", event)
        buffer.append(#","details":{"#)
        // Read in place: a `for` over the tuples copied out (retained and released) each string.
        details.withUnsafeBufferPointer { details in
            for index in details.indices {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                buffer.appendString(details[index].0)
                buffer.append(UInt8(ascii: ":"))
                buffer.appendString(details[index].1)
            }
        }
        buffer.append(UInt8(ascii: "}"))
        end()
    }

    /// A log line with typed details: the same bytes as `log` given the details as text
    /// (`fields.details`), each number spelled straight into the buffer and each name and
    /// literal copied from the binary, with no strings to read or release. After `begin`, the
    /// rest of the line is written through one local cursor after one reserve (each piece
    /// reserving and storing the cursor on its own was most of a line's cost); a line whose
    /// event, names or literals need escaping (none of the engines') goes the general way.
    mutating func log(_ time: SimInstant, _ device: Int?, _ store: Store, _ fields: LogFields) {
        guard enabled else { return }
        begin(time, .log, device: device, store: store)
        if let shape = TypedLogLine.Shape(fields) {
            let template = typedLogLines.template(shape, fields)
            buffer.write(atMost: template.pointee.byteBound) { TypedLogLine.write(fields, template, to: $0) }
            buffer.endLine()
            return
        }
        writeKey("event")
        buffer.appendQuoted(fields.event)
        buffer.append(#","details":{"#)
        for index in 0..<fields.count {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            let field = fields[index]
            buffer.appendQuoted(field.name)
            buffer.append(UInt8(ascii: ":"))
            switch field.value {
            case .number(let value): buffer.appendQuoted(value)
            case .literal(let text): buffer.appendQuoted(text)
            }
        }
        buffer.append(UInt8(ascii: "}"))
        end()
    }

    mutating func observation(_ time: SimInstant, _ device: Int?, _ observation: Observation) {
        guard enabled else { return }
        if case .visible(let key, let value, let write, let cause) = observation {
            // The commonest observation, written straight into the buffer, before the closures
            // the other cases capture (their context was an allocation per line).
            begin(time, .visible, device: device, store: key.store)
            if key.field.isEmpty, let write, case .kvs(.integer(let number)) = value, visibleTail(key, write, number, cause) { return }
            add(account: key.account)
            add("item", key.name)
            if !key.field.isEmpty { add("field", key.field) }
            if let write { add("write", write: write) } else { add("write", JSON.null) }
            // A KVS integer (most values a bench writes) spelled straight in, as `JSON.int` is.
            if case .kvs(.integer(let number)) = value { add("value", number) } else { add("value", ValueJSON.json(value)) }
            add("cause", identifier: cause.traceLiteral)
            end()
            return
        }
        // Locals, so the argument closures below do not read `self` while `record` mutates it.
        let deviceNames = self.deviceNames, accountNames = self.accountNames
        let who: JSON = .string(device.map { deviceNames[$0] } ?? "cloud")
        func item(_ key: ItemKey) -> [(String, JSON)] {
            var fields: [(String, JSON)] = [("store", .string(key.store.rawValue)), ("account", .string(History.accountName(key.account, accountNames: accountNames))), ("item", .string(key.name))]
            if !key.field.isEmpty { fields.append(("field", .string(key.field))) }
            return fields
        }
        func names(_ writes: [WriteID]) -> JSON { .array(writes.map { .string(History.name(of: $0, deviceNames: deviceNames)) }) }
        switch observation {
        case .visible:
            break // written above
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

    /// A `notify` line's end when every item's name is plain (contiguous, at most 16 bytes,
    /// nothing to escape), as a bench's keys are: `,"items":["NAME",…]}` and the newline
    /// through one cursor after one reserve, checked first and then copied (item by item it
    /// was a reserve and an escape check per item and four pieces around them). false, having
    /// written nothing, otherwise: the caller writes the items one by one.
    @inline(__always) private mutating func notificationItems(_ items: [String]) -> Bool {
        let plain = items.allSatisfy { item in
            item.utf8.withContiguousStorageIfAvailable { utf8 in
                utf8.count <= 16 && (utf8.baseAddress.map { !TraceBuffer.mayNeedEscape($0, utf8.count) } ?? utf8.isEmpty)
            } == true
        }
        guard plain else { return false }
        // `,"items":[` 10, each item at most 16 bytes, its quotes and a comma, `]}` and the newline.
        buffer.write(atMost: 13 + 19 * items.count) { target in
            var target = TraceBuffer.copy(#","items":["#, to: target)
            items.withUnsafeBufferPointer { items in
                for index in items.indices {
                    if index > 0 { target.pointee = UInt8(ascii: ","); target += 1 }
                    target.pointee = UInt8(ascii: "\""); target += 1
                    _ = items[index].utf8.withContiguousStorageIfAvailable { utf8 in
                        if let source = utf8.baseAddress { target = TraceBuffer.copy(source, utf8.count, to: target) }
                    }
                    target.pointee = UInt8(ascii: "\""); target += 1
                }
            }
            return TraceBuffer.copy("]}\n", to: target)
        }
        buffer.endLine()
        return true
    }

    /// The rest of the commonest `visible` line after `begin` — an item with no field, a write
    /// and a KVS integer — `,"account":"NAME","item":"NAME","write":"DEVICE:SEQ","value":N,
    /// "cause":"CAUSE"}` and the newline, through one cursor after one reserve, its fixed text
    /// in four literal copies (field by field it was six reserves and ten copies). false, having
    /// written nothing, when the item's name is long, needs escaping or is not contiguous, or
    /// the write's device is not the run's: the caller writes the line field by field.
    @inline(__always) private mutating func visibleTail(_ key: ItemKey, _ write: WriteID, _ number: Int64, _ cause: VisibilityCause) -> Bool {
        let index = Int(write.device.index)
        guard index >= 0 && index < devices.last else { return false }
        let account = accounts.entry(key.account == .publicDatabase ? accounts.last : Int(key.account.index))
        let writer = devices.entry(index)
        let causeTail = cause.visibleLineEnd
        let written = key.name.utf8.withContiguousStorageIfAvailable { utf8 in
            guard let source = utf8.baseAddress, utf8.count <= 16, !TraceBuffer.mayNeedEscape(source, utf8.count) else { return false }
            let byteCount = utf8.count
            // `,"account":` 11, `","item":"` 10, `","write":` 10, `:m` 2, the sequence 20,
            // `","value":` 10, the value 20, the end 25.
            buffer.write(atMost: account.count + byteCount + writer.count + 108) { target in
                var target = TraceBuffer.copy(#","account":"#, to: target)
                target = TraceBuffer.copy(account.start, account.count, to: target)
                target = TraceBuffer.copy(#"","item":""#, to: target)
                target = TraceBuffer.copy(source, byteCount, to: target)
                target = TraceBuffer.copy(#"","write":"#, to: target)
                target = TraceBuffer.copy(writer.start, writer.count, to: target)
                target = TraceBuffer.copy(write.derived ? ":m" : ":", to: target)
                target = TraceBuffer.decimal(UInt64(write.sequence), to: target)
                target = TraceBuffer.copy(#"","value":"#, to: target)
                target = TraceBuffer.decimal(number, to: target)
                return TraceBuffer.copy(causeTail, to: target)
            }
            return true
        }
        guard written == true else { return false }
        buffer.endLine()
        return true
    }

    /// The enum case name of a message body (`upload`, `fetch`), for the trace. Spelled out
    /// rather than reflected (reflection cost a tenth of a big run), and exhaustive, so a new
    /// case is a compile error here instead of a silently wrong name. A literal, so a line copies
    /// it (`add(_:identifier:)`) without making a `String` or checking it for escapes.
    static func caseName(of body: ServiceRequest) -> String { caseLiteral(of: body).description }

    static func caseLiteral(of body: ServiceRequest) -> StaticString {
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
        if case .failed(let error) = result { return error.name }
        return resultLiteral(result)?.description ?? ""
    }

    /// The enum case name of the response body (`changes`) as a literal; nil for a transport
    /// error (named by its `name`).
    static func resultLiteral(_ result: ResponseResult) -> StaticString? {
        switch result {
        case .failed: return nil
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
