import SyncLabKernel

/// One device's link to the cloud (SPEC §3.3). Every knob has a unit and a default.
public struct LinkSettings: Hashable, Sendable {
    /// One-way latency of each message. Default 50 ms fixed.
    public var latency: LatencyDistribution = .fixed(.milliseconds(50))
    /// Probability (0–1) that a message is dropped. Default 0.
    public var loss: Double = 0
    /// Bits per second for document contents and assets: transfer time = size / bandwidth. Default 100 Mbps.
    public var bandwidthBitsPerSecond: Int64 = 100_000_000
    /// One-way latency of a push notification. Default 100 ms.
    public var pushLatency: LatencyDistribution = .fixed(.milliseconds(100))
    /// Probability (0–1) that a push is dropped. Default 0.
    public var pushLoss: Double = 0
    /// When true, messages on this link may overtake each other. Default false (send order).
    public var reorder: Bool = false
    /// How long a request waits for its response before failing with `networkFailure`. Default 30 s.
    public var requestTimeout: SimDuration = .seconds(30)

    public init() {}
}

/// A partial change to a link (`network.set`, per-device overrides): nil keeps the current value.
public struct LinkOverride: Hashable, Sendable {
    public var latency: LatencyDistribution?
    public var loss: Double?
    public var bandwidthBitsPerSecond: Int64?
    public var pushLatency: LatencyDistribution?
    public var pushLoss: Double?
    public var reorder: Bool?
    public var requestTimeout: SimDuration?
    public init() {}

    /// `base` with this override's values on top.
    public func applied(to base: LinkSettings) -> LinkSettings {
        var result = base
        if let latency { result.latency = latency }
        if let loss { result.loss = loss }
        if let bandwidthBitsPerSecond { result.bandwidthBitsPerSecond = bandwidthBitsPerSecond }
        if let pushLatency { result.pushLatency = pushLatency }
        if let pushLoss { result.pushLoss = pushLoss }
        if let reorder { result.reorder = reorder }
        if let requestTimeout { result.requestTimeout = requestTimeout }
        return result
    }
}
