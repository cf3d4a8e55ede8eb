import SyncLabJSON

/// A saved run whose every scenario string is hostile: markup, quotes, control characters,
/// Markdown and Mermaid syntax.
enum HostileRun {
    static let scenario = "<script>alert(1)</script> & \"friends\""
    static let device = "\"><img src=x onerror=alert(1)>"
    static let other = "B|`*_[x](y)#;%"
    static let item = "a&b<c>.txt"

    static func make() -> (trace: [UInt8], result: [UInt8]) {
        func s(_ text: String) -> JSON { .string(text) }
        func n(_ value: Int64) -> JSON { .int(value) }
        var lines: [JSON] = []
        func add(_ time: Int64, _ event: String, _ fields: [(String, JSON)]) {
            lines.append(.object([("t_us", n(time)), ("ev", s(event))] + fields))
        }
        add(0, "run", [("scenario", s(scenario)), ("variant", s("<b>v</b>")), ("seed", n(1)), ("accounts", .array([s("main")])),
                       ("devices", .array([
                           .object([("id", s(device)), ("account", s("main")), ("clockOffset_us", n(0)), ("driftPpm", .double(0.0)), ("online", .bool(true))]),
                           .object([("id", s(other)), ("account", s("main")), ("clockOffset_us", n(-300_000_000)), ("driftPpm", .double(12.5)), ("online", .bool(true))]),
                       ])), ("steps", n(2))])
        add(0, "op", [("device", s(device)), ("op", s("doc.save")), ("write", s("\(device):1")), ("summary", s("doc.save \(item) ]]> \u{7}")),
                      ("outcome", s("accepted")), ("local_us", n(0)), ("step", s("steps[0] <x>"))])
        add(1_000, "send", [("device", s(device)), ("store", s("documents")), ("req", n(1)), ("kind", s("<upload>")), ("bytes", n(3)), ("arrive_us", n(51_000))])
        add(51_000, "cloudReceive", [("device", s(device)), ("store", s("documents")), ("req", n(1)), ("kind", s("<upload>"))])
        add(51_000, "respond", [("device", s(device)), ("store", s("documents")), ("req", n(1)), ("result", s("ok</text>")), ("bytes", n(0)), ("arrive_us", n(90_000))])
        add(90_000, "receive", [("device", s(device)), ("store", s("documents")), ("req", n(1)), ("result", s("ok</text>"))])
        add(5_000_000, "offline", [("device", s(other))])
        add(9_000_000, "op", [("device", s(other)), ("op", s("doc.save")), ("write", s("\(other):1")), ("summary", s("save \"quoted\" 'single'")),
                              ("outcome", s("accepted")), ("local_us", n(-291_000_000)), ("step", s("steps[1]"))])
        add(20_000_000, "online", [("device", s(other))])
        add(20_100_000, "conflict", [("device", s("cloud")), ("store", s("documents")), ("account", s("main")), ("item", s(item)),
                                     ("writes", .array([s("\(device):1"), s("\(other):1")])), ("detail", s("<i>conflict</i>; # %"))])
        add(20_200_000, "end", [("settled", .bool(true)), ("events", n(11))])
        var trace: [UInt8] = []
        for line in lines { trace += Array(line.rendered().utf8); trace.append(10) }
        let result = JSON.object([
            ("scenario", s(scenario)), ("file", s("Scenarios/<evil>.json")), ("variant", s("<b>v</b>")), ("seed", n(1)), ("passed", .bool(false)),
            ("traceDigest", s("fnv1a64:0")), ("events", n(11)), ("simulatedEnd_us", n(20_200_000)), ("settled", .bool(true)),
            ("metrics", .object([("writes", n(2)), ("lostUpdates", n(1)), ("conflicts", n(1)), ("unresolvedConflicts", n(0)),
                                 ("quotaViolations", n(0)), ("converged", .bool(true)), ("notifications", n(0)), ("messages", n(2)), ("retries", n(0))])),
            ("anomalies", .array([.object([
                ("kind", s("lostUpdate")), ("store", s("documents")), ("account", s("main")), ("item", s(item)), ("device", s(other)),
                ("at_us", n(20_100_000)), ("explanation", s("<script>x</script> was lost\nto <img src=y>; # done")),
                ("write", s("\(other):1")), ("replacedBy", s("\(device):1")),
            ])])),
            ("expectations", .array([.object([("name", s("final.documents.<x>")), ("wanted", s("</td><script>")), ("actual", .null), ("passed", .bool(false))])])),
            ("final", .object([JSONField]())),
        ])
        return (trace, Array(result.rendered().utf8))
    }
}
