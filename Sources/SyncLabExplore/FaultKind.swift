/// The fault kinds a generated scenario may enable (swarm testing: each seed enables its own
/// subset, so a fault that masks another is absent from many seeds).
public enum FaultKind: String, Sendable, CaseIterable {
    case airplane, loss, latencyTail, reorder, clockOffset, clockDrift, clockJump, crash, reinstall,
         signOut, accountSwitch, outage, throttle, tokenExpiry, zoneDeleteByEngine, zoneDeleteByUser,
         quota, atomic, batchLimit

    /// Faults that only mean something when the profile has record traffic.
    var needsRecords: Bool {
        switch self {
        case .tokenExpiry, .zoneDeleteByEngine, .zoneDeleteByUser, .batchLimit, .atomic: return true
        default: return false
        }
    }
}
