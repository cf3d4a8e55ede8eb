/// An account, by its index in the scenario's `accounts` list (default: one account, `main`).
///
/// `AccountID.publicDatabase` stands for CloudKit's public database, which belongs to no user.
public struct AccountID: Hashable, Comparable, Sendable {
    public var index: Int32
    @inlinable public init(_ index: Int32) { self.index = index }
    @inlinable public init(index: Int) { self.index = Int32(index) }
    @inlinable public static func < (lhs: AccountID, rhs: AccountID) -> Bool { lhs.index < rhs.index }
    /// The public CloudKit database, shared by every account; reported under the account `"public"`.
    public static let publicDatabase = AccountID(-1)
}
