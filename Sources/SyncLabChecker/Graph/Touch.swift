import SyncLabProtocol

/// One item a write touched.
struct Touch {
    /// Sentinel for `replaced`: the write was never shown on its own device for this item.
    static let notShown: Int32 = -2
    /// Sentinel for `replaced`: its device showed nothing (no write) for the item before it.
    static let nothing: Int32 = -1

    var item: Int32
    /// The value it put there (the last one reported, for a write reported twice).
    var value: ItemValue
    /// What its device showed for the item just before the write replaced it: a write id,
    /// `nothing`, or `notShown`.
    var replaced: Int32
}
