/// One item the checker follows: a KVS key, a document path, or one field of a record.
///
/// - `name`: the key, the path, or `ZONE/NAME` for a record.
/// - `field`: the record field; empty for KVS and documents. A record's existence (created or
///   deleted) is the item with field `""`.
public struct ItemKey: Hashable, Comparable, Sendable {
    public var account: AccountID
    public var store: Store
    public var name: String
    public var field: String

    @inlinable public init(account: AccountID, store: Store, name: String, field: String = "") {
        self.account = account; self.store = store; self.name = name; self.field = field
    }

    public static func < (lhs: ItemKey, rhs: ItemKey) -> Bool {
        if lhs.account != rhs.account { return lhs.account < rhs.account }
        if lhs.store != rhs.store { return lhs.store < rhs.store }
        if lhs.name != rhs.name { return lhs.name.utf8.lexicographicallyPrecedes(rhs.name.utf8) }
        return lhs.field.utf8.lexicographicallyPrecedes(rhs.field.utf8)
    }

    /// `key`, `path`, or `ZONE/NAME.field`, for messages.
    public var displayName: String { field.isEmpty ? name : "\(name).\(field)" }
}
