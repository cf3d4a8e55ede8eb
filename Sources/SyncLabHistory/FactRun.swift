import SyncLabKernel

/// The batch and the time a run of facts shares (`StoredFact.run`, `FactLog.run(_:)`): the
/// facts of one batch happen at one instant, so they are kept once per batch, not per fact.
public struct FactRun: Sendable, Equatable {
    /// The step the facts came from (`FactRecord.batch`).
    public var batch: Int
    /// True time (`FactRecord.at`).
    public var at: SimInstant

    public init(batch: Int, at: SimInstant) { self.batch = batch; self.at = at }
}
