/// A request to make one of a document's conflict versions its current version, keeping that
/// version's write (`NSFileVersion.replaceItem(at:)`), optionally removing other versions
/// (`removeOtherVersionsOfItem(at:)`, `isResolved = true`).
///
/// The cloud applies it only while it still holds the document as the app saw it: `replacing`
/// is still the current version and `chosen` still an unresolved conflict version. Otherwise
/// (another device resolved or saved meanwhile) nothing changes and the answer says so.
public struct DocumentReplacement: Hashable, Sendable {
    public var path: String
    /// The current version the app saw, which the chosen version replaces.
    public var replacing: WriteID
    /// The conflict version to make current.
    public var chosen: WriteID
    /// The other conflict versions to remove with it, sorted (empty: they stay in conflict).
    public var resolves: [WriteID]

    public init(path: String, replacing: WriteID, chosen: WriteID, resolves: [WriteID]) {
        self.path = path; self.replacing = replacing; self.chosen = chosen; self.resolves = resolves
    }
}
