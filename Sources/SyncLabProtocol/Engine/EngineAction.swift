import SyncLabKernel

/// What an engine asks its host to do.
public enum EngineAction: Sendable {
    /// Send this request to the cloud.
    case send(requestID: UInt64, ServiceRequest)
    /// Fire `timer` after `after` (monotonic time: a clock jump does not move it). Replaces a
    /// pending timer with the same kind and id.
    case setTimer(EngineTimer, after: SimDuration)
    case cancelTimer(EngineTimer)
    /// Tell the app something (a KVS change notification, a document conflict, an error).
    case notify(AppNotification)
    /// Record a fact for the checker (what the app sees now, a conflict shown, a rejection…).
    /// Boxed, so the ~100-byte observation does not set the width of every action.
    indirect case observe(Observation)
    /// An observation kept in the context's `observations` (its index), when the host asked for
    /// them apart (`EngineContext.observationsApart`, the simulator): boxed in `observe`, each was
    /// an allocation, a copy out of the box and a release, ~3% of a `--check` run.
    case observed(Int)
    /// A line for the trace: an engine event in the style of CKSyncEngine's event log
    /// (`willSendChanges`, `sentRecordZoneChanges`, …). `details` are (name, value) pairs in order.
    case log(event: String, details: [(String, String)])
    /// A trace line with typed details, for the lines logged on most steps: the index of its
    /// `LogFields` in the context's `logs`. Kept there, not in the action: inline, its four
    /// fields would set the width of every action, and boxed, each line was an allocation and a
    /// release (a sixth of what tracing cost the simulation).
    case logFields(Int)
}
