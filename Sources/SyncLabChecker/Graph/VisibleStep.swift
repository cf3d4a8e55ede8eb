import SyncLabProtocol

/// What one `visible` fact changed, for the passes that judge moments (notifications,
/// atomicity, isolation).
struct VisibleStep {
    var device: DeviceID
    var item: Int32
    /// The write now shown (dense index), -1 for none.
    var write: Int32
    var value: ItemValue
    var cause: VisibilityCause
    /// What the device showed for the item before (`.absent` if nothing).
    var previousValue: ItemValue
}
