import SyncLabProtocol

/// What the scan learned about one write, kept in an array indexed by the write's dense id
/// (`WriteGraph.index(of:)`) instead of one hashed map per question.
struct WriteInfo {
    /// The last user operation (index in `History.operations`) that made the write; -1 for an
    /// engine's own write.
    var operation: Int32 = -1
    /// The device of that operation (-1 for none): read per fact, so kept beside the index.
    var operationDevice: Int32 = -1
    /// The account that operation was made in (nil: none, or signed out).
    var operationAccount: AccountID?
    /// The device whose engine reported the write as its own derived write; -1 if none did.
    var derivedDevice: Int32 = -1
    /// Index in `CheckContext.derivedWhys` of why that engine made it; -1 if none said.
    var derivedWhy: Int32 = -1
    /// The items the write touched, in first-touched order, with its value on each.
    var touches: [Touch] = []
    /// True once the write was shown on its own device (`replaced` is then known for the items
    /// it was shown on).
    var recorded = false
    /// The cloud or the engine refused it and told the app.
    var rejected = false
    /// Index in `CheckContext.discards` of the first time it was discarded; -1 if never.
    var discard: Int32 = -1
    /// It took part in a conflict (detected by the cloud or shown to an app).
    var inConflict = false
    /// Index in `CheckContext.resolutions` of the last policy that resolved a conflict over it; -1 if none.
    var resolution: Int32 = -1
    /// Indices in `CheckContext.decisions` of the last-writer-wins choices it lost, in order.
    var lostDecisions: [Int32] = []

    /// The value the write put on `item`, if it touched it.
    func value(on item: Int32) -> ItemValue? {
        for touch in touches where touch.item == item { return touch.value }
        return nil
    }

    /// True if every item the write touched it removed.
    var isDelete: Bool { !touches.isEmpty && touches.allSatisfy { $0.value == .absent } }
}
