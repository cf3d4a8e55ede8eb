import SyncLabProtocol

/// What a hosted records app shows its user that changed since the platform last read it.
public struct HostedViewChanges: Sendable {
    /// Records shown with (possibly) new contents; with `complete`, every record the app shows.
    public var changed: [HostedViewRecord]
    /// Records the app no longer shows (empty with `complete`: the platform works them out).
    public var removed: [RecordID]
    /// `changed` is every record the app shows: the app could not tell what changed.
    public var complete: Bool

    public init(changed: [HostedViewRecord], removed: [RecordID], complete: Bool) {
        self.changed = changed; self.removed = removed; self.complete = complete
    }
}
