/// Server change tokens (CKServerChangeToken), opaque to engines.
///
/// `epoch` is the cloud's token epoch: `cloud.expireTokens` bumps it, and a token of an older
/// epoch fails with `changeTokenExpired`.
public struct DatabaseChangeToken: Hashable, Sendable {
    public var epoch: UInt64
    public var sequence: UInt64
    public init(epoch: UInt64, sequence: UInt64) { self.epoch = epoch; self.sequence = sequence }
}
