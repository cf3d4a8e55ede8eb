/// A per-zone change token (CKServerChangeToken), opaque to engines. `epoch` as for
/// `DatabaseChangeToken`; `incarnation` tells a token of a deleted and recreated zone apart.
public struct ZoneChangeToken: Hashable, Sendable {
    public var epoch: UInt64
    public var incarnation: UInt64
    public var sequence: UInt64
    public init(epoch: UInt64, incarnation: UInt64, sequence: UInt64) {
        self.epoch = epoch; self.incarnation = incarnation; self.sequence = sequence
    }
}
