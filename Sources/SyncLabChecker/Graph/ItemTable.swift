import SyncLabProtocol

/// Dense ids for the items of a run (KVS keys, documents, record fields), so the passes key
/// their arrays on an `Int32` instead of hashing an `ItemKey` (two strings) again and again.
///
/// Ids are given in first-seen order; `sortedIDs` gives the `ItemKey` order where output
/// depends on it.
struct ItemTable {
    private(set) var keys: [ItemKey] = []
    private var idByKey: [ItemKey: Int32] = [:]

    init(capacity: Int) {
        keys.reserveCapacity(capacity)
        idByKey.reserveCapacity(capacity)
    }

    var count: Int { keys.count }

    /// The id of `key`, given it a new one if it has none.
    /// - Complexity: one hash of `key`.
    mutating func id(of key: ItemKey) -> Int32 {
        if let id = idByKey[key] { return id }
        let id = Int32(keys.count)
        keys.append(key)
        idByKey[key] = id
        return id
    }

    /// The id of `key` if it has one.
    func existingID(of key: ItemKey) -> Int32? { idByKey[key] }

    subscript(id: Int32) -> ItemKey { keys[Int(id)] }

    /// `ids` in `ItemKey` order.
    func sorted(_ ids: [Int32]) -> [Int32] { ids.sorted { keys[Int($0)] < keys[Int($1)] } }
}
