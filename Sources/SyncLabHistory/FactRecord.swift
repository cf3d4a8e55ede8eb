import SyncLabKernel
import SyncLabProtocol

/// One fact as the simulator recorded it: what an engine or the cloud reported, stamped with the
/// device, the true time and the batch it belongs to.
///
/// **What a batch means.** A batch is one indivisible step of the world: one engine handling one
/// input (an app call, a response, a push, a timer, a launch), the cloud handling one request, one
/// user operation, or one device-level event (an account change, an app deletion). Every fact of
/// a batch happened at the same instant, and nothing any app could observe happened between two
/// facts of one batch: an app sees the world only between batches. So the checker judges
/// "a moment" (what a device showed, which keys a notification listed) at batch boundaries,
/// never between two facts of one batch. Batch numbers increase strictly in recording order
/// (facts of one batch are contiguous in `History.facts`); two batches may share a time.
public struct FactRecord: Sendable {
    /// The step it came from (see the type's discussion): facts of one batch happened at once.
    public var batch: Int
    /// True time (not the device's clock).
    public var at: SimInstant
    /// The device whose engine reported it; nil for the cloud.
    public var device: DeviceID?
    /// What was reported.
    public var kind: FactKind

    public init(batch: Int, at: SimInstant, device: DeviceID?, kind: FactKind) {
        self.batch = batch; self.at = at; self.device = device; self.kind = kind
    }
}
