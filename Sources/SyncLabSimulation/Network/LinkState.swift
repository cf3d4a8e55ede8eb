import SyncLabKernel
import SyncLabScenario

/// The live state of one device's link to the cloud.
struct LinkState {
    // Declared (so laid out) with what every message reads first, `configured` and the cut
    // causes after it (see `VirtualDevice`).
    /// The settings in force (`network.set` changes them; the heal phase restores `configured`).
    var settings: LinkSettings
    /// Bumped each time the device's transfers are cut (it goes offline or crashes): a message
    /// carries the epoch it was sent in and dies on arrival if the epoch moved on.
    var epoch: UInt32 = 0
    /// The latest delivery time scheduled in each direction, for in-order delivery.
    var lastUplinkDelivery = SimInstant.start
    var lastDownlinkDelivery = SimInstant.start
    /// Randomness for latency and loss of this link (`link/<device>`).
    var random: SeededRandom
    /// Randomness for push latency and loss (`push/<device>`).
    var pushRandom: SeededRandom
    /// The device's settings as the scenario declared them.
    let configured: LinkSettings
    /// Why each cut happened, by the epoch it ended (`cutCauses[e]` killed the messages of epoch
    /// `e`), for the trace's `dropped` lines. One entry per offline or crash step: bounded.
    var cutCauses: [LinkCut] = []

    init(settings: LinkSettings, seed: UInt64, deviceName: String) {
        self.settings = settings
        self.configured = settings
        random = SeededRandom(seed: seed, stream: "link/\(deviceName)")
        pushRandom = SeededRandom(seed: seed, stream: "push/\(deviceName)")
    }

    /// Cuts every transfer in progress (SPEC §3.2, §3.3): what was not fully delivered never
    /// arrives. The in-order markers restart too: the dead messages no longer hold later ones
    /// back, so a device back online (or restarted) is not made to wait for an upload it lost.
    mutating func cut(_ cause: LinkCut) {
        cutCauses.append(cause)
        epoch &+= 1
        lastUplinkDelivery = .start
        lastDownlinkDelivery = .start
    }

    /// What cut a message sent in `sentEpoch` (a message of the current epoch was not cut).
    func cause(ofCutAfter sentEpoch: UInt32) -> LinkCut {
        Int(sentEpoch) < cutCauses.count ? cutCauses[Int(sentEpoch)] : .offline
    }

    /// Transfer time of `bytes` at `bandwidthBitsPerSecond` (0 for 0 bytes).
    static func transferTime(bytes: Int64, bandwidthBitsPerSecond: Int64) -> SimDuration {
        guard bytes > 0, bandwidthBitsPerSecond > 0 else { return .zero }
        let micros = (Double(bytes) * 8.0 * 1_000_000.0 / Double(bandwidthBitsPerSecond)).rounded(.up)
        return SimDuration(microseconds: Int64(min(micros, Double(Int64.max / 4))))
    }

    /// When a message sent now arrives, honouring in-order delivery unless `reorder` is set.
    mutating func deliveryTime(now: SimInstant, bytes: Int64, uplink: Bool) -> SimInstant {
        // The static transfer time, given the bandwidth: the method on `self`, called from this
        // mutating one, was handed a copy of the whole link (272 bytes, `configured` and all):
        // at every message, five cache lines read and written back, most of them cold.
        var arrival = now + settings.latency.sample(&random) + Self.transferTime(bytes: bytes, bandwidthBitsPerSecond: settings.bandwidthBitsPerSecond)
        if !settings.reorder {
            if uplink {
                if arrival < lastUplinkDelivery { arrival = lastUplinkDelivery }
                lastUplinkDelivery = arrival
            } else {
                if arrival < lastDownlinkDelivery { arrival = lastDownlinkDelivery }
                lastDownlinkDelivery = arrival
            }
        }
        return arrival
    }
}
