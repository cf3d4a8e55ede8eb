import SyncLabProtocol

/// A notification as `FactLog` keeps it: ids, no strings and no array of its own.
///
/// Its reason is an id in the log's reasons (`FactLog.reason(_:)`), its items a run of name ids
/// in the log's notification items (`FactLog.notificationItem(_:)`, names by `FactLog.name(_:)`).
/// Notifications were kept as the engines' `AppNotification`s (a third of a run's facts): each
/// held on to its item list, an array the engine had allocated, so at 1,000 devices 870,000
/// small arrays stayed alive, the heap grew into fresh memory instead of reusing the chunk just
/// freed, and those pages and cache lines were a share of `bench --check`'s overhead (issue 13,
/// session 11). Since session 12 the fact itself holds these fields (`StoredFact.notification`).
public struct StoredNotification: Sendable {
    /// Where its items start in the log's notification items.
    public var firstItem: Int
    /// How many items it lists.
    public var itemCount: Int32
    /// Its reason's id in the log's reasons.
    public var reason: Int32
    public var store: Store

    /// The positions of its items in the log's notification items.
    public var items: Range<Int> { firstItem..<(firstItem + Int(itemCount)) }
}
