import SyncLabProtocol

/// What one `visible` fact changed, for the passes that judge moments (notifications,
/// atomicity, isolation).
///
/// The values are the ids `ShownTable` gives them, not `ItemValue`s: values `==` to each other
/// have one id, so the passes compare them as integers, and a step carries no value to copy
/// and destroy (two outlined copies and two destroys of an `ItemValue` per visible fact, ~1.5%
/// of `bench --check`'s instructions, issue 13, session 12).
struct VisibleStep {
    var device: DeviceID
    var item: Int32
    /// The write now shown (dense index), -1 for none.
    var write: Int32
    /// The id of the value now shown (`ShownTable.absentValue`: `.absent`).
    var value: Int32
    var cause: VisibilityCause
    /// The id of what the device showed for the item before (`ShownTable.absentValue` if nothing).
    var previousValue: Int32
}
