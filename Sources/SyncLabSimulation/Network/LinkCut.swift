/// Why a device's link cut its transfers in progress (SPEC §3.2, §3.3).
enum LinkCut: Sendable {
    /// Airplane mode went on.
    case offline
    /// The device crashed.
    case crash

    /// How the trace's `dropped` line says it, for a request or a response.
    func why(_ message: String) -> String {
        switch self {
        case .offline: return "device went offline while the \(message) was in flight"
        case .crash: return "device crashed while the \(message) was in flight"
        }
    }
}
