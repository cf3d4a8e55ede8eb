/// A notification the app receives. `reason` and `items` are what `expect.notifications` and
/// the checker's missed/spurious notification checks see.
public struct AppNotification: Hashable, Sendable {
    /// Every reason an engine gives, so scenario files can be checked against them.
    /// KVS: `serverChange`, `initialSyncChange`, `quotaViolationChange`, `accountChange`.
    /// Documents: `inConflict`, `conflictResolved`, `error`. Records: `fetched`, `conflict`, `error`.
    public static let reasons = ["serverChange", "initialSyncChange", "quotaViolationChange", "accountChange",
                                 "inConflict", "conflictResolved", "fetched", "conflict", "error"]

    public var store: Store
    public var reason: String
    /// The changed keys (KVS), paths, or record names, in the engine's order.
    public var items: [String]
    public init(store: Store, reason: String, items: [String]) {
        self.store = store; self.reason = reason; self.items = items
    }
}
