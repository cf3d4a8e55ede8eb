/// The `ev` of a `trace.jsonl` line: the contract between the simulation, which writes the
/// trace, and the reports, which read it back (SPEC §8). The raw value is the name in the file,
/// so renaming a case breaks the build of both sides, never a report.
public enum TraceEventKind: String, CaseIterable, Hashable, Sendable {
    /// The first line: scenario, variant, seed, accounts, devices, step count, description.
    case run
    /// The run stopped: whether it settled, and how many events it took.
    case end
    /// A device's app launched (at t=0, after a restart or an install).
    case launch
    /// The heal phase began: links restored, apps brought to the foreground.
    case heal
    /// A user-level operation ran on a device (write id, summary, outcome, local time).
    case op
    /// A step that did nothing (e.g. an op on a device whose app is not installed).
    case skipped
    /// An `assert` step, and whether it held.
    case assert
    /// A device's clock was set or stepped.
    case clock
    /// The cloud's clock was set.
    case cloudClock
    /// The cloud expired change tokens.
    case cloudExpireTokens
    /// The cloud (or one service) went down or came back.
    case cloudOutage
    /// The cloud began or stopped throttling (a zone busy, or every request).
    case cloudThrottle
    /// A device went offline.
    case offline
    /// A device came online.
    case online
    /// A device crashed.
    case crash
    /// A crashed device restarted.
    case restart
    /// A device put a request on the wire.
    case send
    /// The cloud received a request.
    case cloudReceive
    /// The cloud answered a request.
    case respond
    /// A device received an answer.
    case receive
    /// A message was lost (the link dropped it, or the device went offline with it in flight).
    case dropped
    /// A request timed out on its device.
    case timeout
    /// The cloud pushed a change notification.
    case push
    /// A device received a push.
    case pushReceive
    /// An engine timer fired.
    case timer
    /// An engine notified its app.
    case notify
    /// An engine or the cloud wrote a log line.
    case log
    /// What an app sees for an item changed (`Observation.visible`).
    case visible
    /// An engine made a write of its own (`Observation.derivedWrite`).
    case derivedWrite
    /// The cloud detected a conflict (`Observation.conflictDetected`).
    case conflict
    /// An app was shown a conflict (`Observation.conflictShown`).
    case conflictShown
    /// A write was rejected and the app told (`Observation.rejected`).
    case rejected
    /// A last-writer-wins comparison (`Observation.lastWriterWins`).
    case lastWriterWins
    /// A pending change was discarded (`Observation.discarded`).
    case discarded
    /// A free-form engine remark (`Observation.note`).
    case note
}
