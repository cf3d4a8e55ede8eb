/// Examples of the right shape, for error messages: a user who wrote the wrong shape sees the one
/// that was expected (`expected a device object such as {"id": "A"}`), not only what was wrong.
///
/// The op examples are the ones `docs/SCENARIOS.md` shows, and a test keeps the two the same and
/// checks that each one validates.
enum ShapeExample {
    static let device = #"{"id": "A"}"#
    static let clock = #"{"offset": "-2s", "driftPpm": 50}"#
    static let link = #"{"latency": "50ms", "loss": 0.1}"#
    static let latency = #"{"dist": "uniform", "min": "20ms", "max": "120ms"}"#
    static let engine = #"{"documents": {"conflict": "merge"}}"#
    static let limits = #"{"kvs": {"keys": 10}, "storage": "1MB"}"#
    static let end = #"{"heal": true, "settle": "1h"}"#
    static let variant = #"{"name": "merge", "engine": {"documents": {"conflict": "merge"}}}"#
    static let expect = #"{"converged": true, "lostUpdates": 0}"#
    static let itemValues = #"{"kvs": {"theme": "dark"}, "documents": {"note.txt": "v1\n"}, "records": {"Todos/t1": {"title": "Milk"}}}"#
    static let notification = #"{"device": "A", "reason": "serverChange"}"#
    static let steps = #"[{"at": "10s", "device": "A", "op": "kvs.set", "key": "theme", "value": "dark"}]"#
    static let atomicRecord = #"{"type": "Todo", "name": "t1", "fields": {"title": "Milk"}}"#

    /// `{"kind": "KIND"}`.
    static func anomalyPattern(_ kind: String = "lostUpdate") -> String { #"{"kind": ""# + kind + #""}"# }

    /// One complete step of each op, as `docs/SCENARIOS.md` shows it.
    static let ops: [(op: String, step: String)] = [
        ("airplane.on", #"{"at": "10s", "device": "A", "op": "airplane.on"}"#),
        ("airplane.off", #"{"at": "60s", "device": "A", "op": "airplane.off"}"#),
        ("network.set", #"{"at": "5s", "device": "B", "op": "network.set", "latency": "800ms", "loss": 0.2}"#),
        ("app.foreground", #"{"at": "30s", "device": "A", "op": "app.foreground"}"#),
        ("cloud.clock.set", #"{"at": "0s", "op": "cloud.clock.set", "offset": "+3s"}"#),
        ("clock.set", #"{"at": "20s", "device": "B", "op": "clock.set", "offset": "-5m"}"#),
        ("clock.jump", #"{"at": "20s", "device": "B", "op": "clock.jump", "by": "+1h"}"#),
        ("device.crash", #"{"at": "40s", "device": "A", "op": "device.crash"}"#),
        ("device.restart", #"{"at": "50s", "device": "A", "op": "device.restart"}"#),
        ("app.delete", #"{"at": "40s", "device": "A", "op": "app.delete"}"#),
        ("app.install", #"{"at": "50s", "device": "A", "op": "app.install"}"#),
        ("account.signOut", #"{"at": "30s", "device": "A", "op": "account.signOut"}"#),
        ("account.signIn", #"{"at": "40s", "device": "A", "op": "account.signIn", "account": "main"}"#),
        ("cloud.outage", #"{"at": "10s", "op": "cloud.outage", "for": "2m"}"#),
        ("cloud.throttle", #"{"at": "10s", "op": "cloud.throttle", "for": "1m", "retryAfter": "20s"}"#),
        ("cloud.expireTokens", #"{"at": "10s", "op": "cloud.expireTokens"}"#),
        ("kvs.set", #"{"at": "1s", "device": "A", "op": "kvs.set", "key": "theme", "value": "dark"}"#),
        ("kvs.setMany", #"{"at": "1s", "device": "A", "op": "kvs.setMany", "values": {"theme": "dark", "fontSize": 14}}"#),
        ("kvs.remove", #"{"at": "2s", "device": "A", "op": "kvs.remove", "key": "theme"}"#),
        ("kvs.increment", #"{"at": "3s", "device": "A", "op": "kvs.increment", "key": "launches", "by": 1}"#),
        ("kvs.synchronize", #"{"at": "4s", "device": "A", "op": "kvs.synchronize"}"#),
        ("doc.save", #"{"at": "0s", "device": "A", "op": "doc.save", "path": "note.txt", "content": "v1\n"}"#),
        ("doc.append", #"{"at": "5s", "device": "A", "op": "doc.append", "path": "note.txt", "text": "more\n"}"#),
        ("doc.delete", #"{"at": "9s", "device": "A", "op": "doc.delete", "path": "note.txt"}"#),
        ("zone.create", #"{"at": "0s", "device": "A", "op": "zone.create", "zone": "Todos"}"#),
        ("zone.delete", #"{"at": "30s", "device": "A", "op": "zone.delete", "zone": "Todos", "byUser": true}"#),
        ("record.save", #"{"at": "1s", "device": "A", "op": "record.save", "zone": "Todos", "type": "Todo", "name": "t1", "fields": {"title": "Milk", "done": 0}}"#),
        ("record.delete", #"{"at": "8s", "device": "B", "op": "record.delete", "zone": "Todos", "name": "t1"}"#),
        ("records.saveAtomic", #"{"at": "2s", "device": "A", "op": "records.saveAtomic", "zone": "Todos", "records": [{"type": "List", "name": "l1", "fields": {"title": "Shop"}}], "delete": ["t1"]}"#),
        ("subscription.create", #"{"at": "0s", "device": "A", "op": "subscription.create", "database": "public"}"#),
        ("assert", #"{"at": "25s", "device": "A", "op": "assert", "kvs": {"theme": "dark"}, "records": {"Todos/t1": {"title": "Milk"}}}"#),
    ]

    /// The example step of `op`, or nil for an op without one.
    static func step(_ op: String) -> String? { ops.first { $0.op == op }?.step }

    /// Unknown keys new users write for a known one: the hint replaces the edit-distance guess,
    /// which would offer `times` for `time`.
    static let stepKeyHints: [String: String] = [
        "time": "; a step's time is 'at', like \"at\": \"10s\"",
        "when": "; a step's time is 'at', like \"at\": \"10s\"",
        "devices": "; did you mean 'device'? (it takes an id, a list of ids, or \"*\")",
        "recordType": "; did you mean 'type'?",
        "recordName": "; did you mean 'name'?",
        "repeat": "; a step repeats with 'every' and 'times', like \"every\": \"10s\", \"times\": 3",
        "count": "; a step repeats with 'every' and 'times', like \"every\": \"10s\", \"times\": 3",
        "repeats": "; a step repeats with 'every' and 'times', like \"every\": \"10s\", \"times\": 3",
        "interval": "; a step repeats with 'every' and 'times', like \"every\": \"10s\", \"times\": 3",
    ]
}
