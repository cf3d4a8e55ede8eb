import SyncLabJSON

/// The SPEC §5 steps and inputs of `ExtraInput`, drawn after everything else so that a seed
/// that draws none keeps its scenario byte for byte.
///
/// Whether a seed gets any, and which, comes from the `extras` sub-stream; each kind then draws
/// from a stream of its own (`foreground`, `networkSet`, `clockSet`, `cloudClock`,
/// `subscriptions`, `places`, `types`, `longKeys`), so adding one more kind does not move the
/// others. New steps are appended after the existing ones (steps at one time keep emission
/// order); the rest rewrite the database, zone, type or key of steps the traffic drew, never
/// their times, devices or ops.
extension ScenarioBuilder {
    /// Share of seeds that get any extra input.
    static let extrasShare = 0.4

    /// The seed's extra inputs, in `ExtraInput.allCases` order (empty for most seeds).
    func drawExtras() -> [ExtraInput] {
        var gate = draw("extras")
        guard gate.chance(ScenarioBuilder.extrasShare) else { return [] }
        let applicable = ExtraInput.allCases.filter { $0.applies(to: profile) }
        let chosen = applicable.filter { _ in gate.chance(0.5) }
        return chosen.isEmpty ? [gate.pick(applicable)] : chosen
    }

    mutating func addExtraInputs(_ extras: [ExtraInput]) {
        for extra in extras {
            switch extra {
            case .appForeground: addForegrounds()
            case .networkSet: addNetworkChanges()
            case .clockSet: addClockSets()
            case .cloudClockSet: addCloudClockSets()
            case .subscription: addSubscriptions(publicShare: 0.7)
            case .publicDatabase, .defaultZone: break // one pass for both, below
            case .recordTypes: assignRecordTypes()
            case .longKeys: useLongKeys()
            }
        }
        let places = [ExtraInput.publicDatabase, .defaultZone].filter(extras.contains)
        if !places.isEmpty { relocateRecords(places) }
    }

    private var activityEnd: Int { ScenarioGenerator.activityEnd_ms }

    private mutating func addForegrounds() {
        var draw = draw("foreground")
        for _ in 0..<draw.int(1...4) {
            add(draw.int(500...activityEnd), draw.int(0...(deviceIDs.count - 1)), "app.foreground")
        }
    }

    private mutating func addNetworkChanges() {
        var draw = draw("networkSet")
        for _ in 0..<draw.int(1...3) {
            let at = draw.int(500...activityEnd), device = draw.int(0...(deviceIDs.count - 1))
            var arguments: [(String, JSON)] = []
            if draw.chance(0.4) {
                // Sometimes slower one way than half the request timeout: every request times out, maybe applied.
                let latency = draw.chance(0.25) ? draw.int(15_000...20_000) : draw.int(5...2_000)
                arguments.append(("latency", draw.chance(0.5) ? .string("\(latency)ms")
                    : .object([("dist", .string("uniform")), ("min", .string("\(latency / 2)ms")), ("max", .string("\(latency)ms"))])))
            }
            if draw.chance(0.4) { arguments.append(("loss", .double(Double(draw.int(0...50)) / 100))) }
            if draw.chance(0.3) { arguments.append(("bandwidth", .string(draw.pick(["64kbps", "256kbps", "1Mbps", "10Mbps"])))) }
            if draw.chance(0.3) { arguments.append(("pushLatency", .string("\(draw.int(10...30_000))ms"))) }
            if draw.chance(0.4) || arguments.isEmpty { arguments.append(("pushLoss", .double(draw.pick([0.5, 1.0])))) }
            add(at, device, "network.set", arguments)
        }
    }

    private mutating func addClockSets() {
        var draw = draw("clockSet")
        for _ in 0..<draw.int(1...3) {
            add(draw.int(500...activityEnd), draw.int(0...(deviceIDs.count - 1)), "clock.set", [("offset", .string(draw.signedMilliseconds(0...600_000)))])
        }
    }

    private mutating func addCloudClockSets() {
        var draw = draw("cloudClock")
        for _ in 0..<draw.int(1...2) {
            add(draw.int(0...activityEnd), nil, "cloud.clock.set", [("offset", .string(draw.signedMilliseconds(1_000...600_000)))])
        }
    }

    private mutating func addSubscriptions(publicShare: Double) {
        var draw = draw("subscriptions")
        for _ in 0..<draw.int(1...3) {
            let at = draw.int(0...activityEnd), device = draw.int(0...(deviceIDs.count - 1))
            add(at, device, "subscription.create", [("database", .string(draw.chance(publicShare) ? "public" : "private"))])
        }
    }

    /// Some `record.save` / `record.delete` steps move to the public database or the private
    /// `_defaultZone` (the zone argument dropped: `_defaultZone` is the default). Atomic calls
    /// stay in `Z`: neither place takes them (SPEC §4.3).
    private mutating func relocateRecords(_ places: [ExtraInput]) {
        var draw = draw("places")
        for index in steps.indices {
            let op = ScenarioBuilder.op(steps[index].step)
            guard op == "record.save" || op == "record.delete", draw.chance(0.4), let fields = steps[index].step.fields else { continue }
            let place = draw.pick(places)
            var moved: [JSONField] = []
            for field in fields {
                guard field.key == "zone" else { moved.append(field); continue }
                if place == .publicDatabase { moved.append(JSONField("database", .string("public"))) }
            }
            steps[index].step = .object(moved)
        }
    }

    /// One record name of the seed (and each other with probability 0.3) becomes a `Task` in
    /// every step that saves it, so a zone holds records of two types.
    private mutating func assignRecordTypes() {
        var draw = draw("types")
        let names = ["r0", "r1", "r2"]
        let first = draw.pick(names)
        let tasks = names.filter { $0 == first || draw.chance(0.3) }
        func typed(_ record: JSON) -> JSON {
            guard let name = record["name"]?.text, tasks.contains(name) else { return record }
            return record.setting("type", .string("Task"))
        }
        for index in steps.indices {
            let step = steps[index].step
            switch ScenarioBuilder.op(step) {
            case "record.save": steps[index].step = typed(step)
            case "records.saveAtomic":
                guard let records = step["records"]?.elements else { continue }
                steps[index].step = step.setting("records", .array(records.map(typed)))
            default: continue
            }
        }
    }

    /// Some KVS calls use a key at or past the 64-byte limit (`ExtraInput.longKeys`): the key of
    /// a set, remove or increment, or the second key of a `setMany` (then the whole call is
    /// refused, SPEC §4.1: every call is atomic).
    private mutating func useLongKeys() {
        var draw = draw("longKeys")
        for index in steps.indices {
            let step = steps[index].step
            switch ScenarioBuilder.op(step) {
            case "kvs.set", "kvs.remove", "kvs.increment":
                guard draw.chance(0.35) else { continue }
                steps[index].step = step.setting("key", .string(draw.pick(ExtraInput.longKeyNames)))
            case "kvs.setMany":
                guard draw.chance(0.35), let values = step["values"]?.fields, values.count > 1 else { continue }
                let key = draw.pick(ExtraInput.longKeyNames)
                steps[index].step = step.setting("values", .object(values.enumerated().map { JSONField($0.offset == 1 ? key : $0.element.key, $0.element.value) }))
            default: continue
            }
        }
    }
}
