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

    /// `devices=3 ops=14 faults=airplane,crash documents=merge records=merge`.
    public var summary: String {
        var parts = ["devices=\(devices)", "ops=\(operations)", "faults=\(faults.isEmpty ? "none" : faults.map(\.rawValue).joined(separator: ","))"]
        if profile.uses(.documents) { parts.append("documents=\(documentsPolicy.rawValue)") }
        if profile.uses(.records) { parts.append("records=\(recordsPolicy.rawValue)") }
        return parts.joined(separator: " ")
    }
}
