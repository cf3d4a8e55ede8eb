import Foundation
internal import SyncLabJSON
internal import SyncLabKernel
internal import SyncLabReports

/// What a `World` ran, as a scenario file: its scenario's own text with every op the world
/// performed appended as a step at the true time it ran, and `end.at` at the time `finish()`
/// was called. Its results save this as `scenario.json`, so their replay line runs the same ops
/// at the same times (it used to name a file with the devices and none of the ops).
struct WorldReplayFile {
    /// The scenario's top-level members, nil when its text could not be read (then results name
    /// the scenario as it was given, without the world's ops).
    private let members: [JSONField]?
    /// The ops performed, each a step object with its `at` first (a duration as files write
    /// them, `"35.300001s"`: exact to the microsecond).
    private(set) var steps: [JSON] = []
    /// When the last op ran.
    private var lastStepTime: SimInstant?

    /// - Parameter text: the scenario's text; nil reads the file at `path`.
    init(text: String?, path: String) {
        let source = text ?? (try? String(contentsOfFile: path, encoding: .utf8))
        guard let source, let node = try? JSON5Reader.parse(source), case .object(let fields) = node.json else { members = nil; return }
        members = fields
    }

    /// Records `step` (an op as `World.perform` takes it, without `at`) as run at `time`.
    mutating func record(_ step: ScenarioObject, at time: SimInstant) {
        guard case .object(let fields) = step.json else { return }
        steps.append(.object([JSONField("at", .string(Self.text(time)))] + fields))
        lastStepTime = time
    }

    /// The file's text, its end phase at `end` (when `finish()` was called; nil for a snapshot).
    /// - Parameter duration: the scenario's `duration`: raised to the last op's time when that
    ///   is later (a step past it would not validate).
    func text(endingAt end: SimInstant?, duration: SimDuration) -> String? {
        guard var members else { return nil }
        if !steps.isEmpty {
            let own: [JSON]
            if case .array(let elements)? = members.first(where: { $0.key == "steps" })?.value { own = elements } else { own = [] }
            set("steps", .array(own + steps), in: &members)
        }
        if let end {
            var endFields: [JSONField] = []
            if case .object(let fields)? = members.first(where: { $0.key == "end" })?.value { endFields = fields }
            endFields.removeAll { $0.key == "at" }
            endFields.append(JSONField("at", .string(Self.text(end))))
            set("end", .object(endFields), in: &members)
        }
        if let lastStepTime, lastStepTime.microseconds > duration.microseconds {
            set("duration", .string(Self.text(lastStepTime)), in: &members)
        }
        return JSON.object(members).rendered()
    }

    /// A time as a file writes it: `SimDuration`'s text, which the duration reader reads back
    /// to the same microsecond (`"5s"`, `"35.300001s"`, `"250ms"`).
    private static func text(_ time: SimInstant) -> String { SimDuration(microseconds: time.microseconds).description }

    /// Replaces the member `key`, or adds it before `expect`/`variants` (or at the end).
    private func set(_ key: String, _ value: JSON, in members: inout [JSONField]) {
        if let index = members.firstIndex(where: { $0.key == key }) { members[index].value = value; return }
        let index = members.firstIndex { $0.key == "expect" || $0.key == "variants" } ?? members.count
        members.insert(JSONField(key, value), at: index)
    }
}
