import SyncLabProtocol

/// What one seed chose: printed with the seed and written into the scenario's description.
public struct GeneratorChoices: Sendable, Equatable {
    public var profile: FuzzProfile
    public var devices: Int
    /// Enabled fault kinds, in `FaultKind.allCases` order.
    public var faults: [FaultKind]
    public var documentsPolicy: DocumentConflictPolicy
    public var recordsPolicy: RecordConflictPolicy
    /// User operations generated (before any were dropped for a crashed device).
    public var operations: Int
    /// The SPEC §5 inputs beyond traffic and faults this seed drew (`ExtraInput`), in
    /// `ExtraInput.allCases` order; empty for most seeds.
    public var extras: [ExtraInput] = []

    /// `devices=3 ops=14 faults=airplane,crash documents=merge records=merge`, then
    /// `extras=clockSet,longKeys` when the seed drew any (not otherwise: such seeds keep the
    /// description they had before extras existed).
    public var summary: String {
        var parts = ["devices=\(devices)", "ops=\(operations)", "faults=\(faults.isEmpty ? "none" : faults.map(\.rawValue).joined(separator: ","))"]
        if profile.uses(.documents) { parts.append("documents=\(documentsPolicy.rawValue)") }
        if profile.uses(.records) { parts.append("records=\(recordsPolicy.rawValue)") }
        if !extras.isEmpty { parts.append("extras=" + extras.map(\.rawValue).joined(separator: ",")) }
        return parts.joined(separator: " ")
    }
}
