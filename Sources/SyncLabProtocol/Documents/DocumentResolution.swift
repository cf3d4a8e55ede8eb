/// The conflict versions a resolution resolves, carried with a merge upload.
///
/// The cloud applies the first resolution that still names an unresolved version and ignores
/// repeats, so devices that resolve the same conflict at once converge.
public struct DocumentResolution: Hashable, Sendable {
    /// The merge result this resolution uploads.
    public var merged: WriteID
    /// The conflict versions it resolves, sorted.
    public var resolves: [WriteID]

    public init(merged: WriteID, resolves: [WriteID]) { self.merged = merged; self.resolves = resolves }
}
