import SyncLabProtocol

/// The app policies a campaign runs under (`--policy NAME`, repeatable). Each seed picks one
/// documents policy and one records policy from these, from its own sub-stream.
public struct FuzzPolicies: Sendable, Equatable {
    public var documents: [DocumentConflictPolicy]
    public var records: [RecordConflictPolicy]

    /// The lossless policies: documents keepVersions, keepBoth and merge; records merge.
    public static let lossless = FuzzPolicies(documents: [.keepVersions, .keepBoth, .merge], records: [.merge])

    public init(documents: [DocumentConflictPolicy], records: [RecordConflictPolicy]) {
        self.documents = documents; self.records = records
    }

    /// Every name `--policy` accepts (`merge` names both the documents and the records policy).
    public static let names = ["lastWriterWins", "keepVersions", "keepBoth", "merge", "serverWins", "clientWins"]

    /// Policies from `--policy` names; a store none of the names is for keeps its lossless
    /// default. Returns nil (with the bad name) for an unknown name.
    public static func parse(_ names: [String]) -> Result<FuzzPolicies, PolicyNameError> {
        if names.isEmpty { return .success(.lossless) }
        var documents: [DocumentConflictPolicy] = []
        var records: [RecordConflictPolicy] = []
        for name in names {
            let document = DocumentConflictPolicy(rawValue: name)
            let record = RecordConflictPolicy(rawValue: name)
            if document == nil && record == nil { return .failure(PolicyNameError(name: name)) }
            if let document, !documents.contains(document) { documents.append(document) }
            if let record, !records.contains(record) { records.append(record) }
        }
        return .success(FuzzPolicies(documents: documents.isEmpty ? lossless.documents : documents,
                                     records: records.isEmpty ? lossless.records : records))
    }

    /// Whether `name` is a policy of a store `profile` makes traffic for: a `--policy` no seed
    /// of the profile could run is refused, not silently ignored (`--profile documents --policy
    /// serverWins` would otherwise run the documents defaults and say nothing).
    public static func applies(_ name: String, to profile: FuzzProfile) -> Bool {
        (DocumentConflictPolicy(rawValue: name) != nil && profile.uses(.documents))
            || (RecordConflictPolicy(rawValue: name) != nil && profile.uses(.records))
    }

    /// The `--policy` names that apply to `profile`.
    public static func names(for profile: FuzzProfile) -> [String] {
        names.filter { applies($0, to: profile) }
    }

    /// The names of the policies `profile` runs, documents first then records (`merge` once).
    public func names(for profile: FuzzProfile) -> [String] {
        var result = profile.uses(.documents) ? documents.map { $0.rawValue } : []
        for record in records where profile.uses(.records) && !result.contains(record.rawValue) { result.append(record.rawValue) }
        return result
    }
}

/// An unknown `--policy` name.
public struct PolicyNameError: Error, Sendable {
    public var name: String
}
