import SyncLabProtocol

/// Requests sent and not yet answered, as a map from `RequestKey`: one short list per device
/// and service instead of one hash table for the world.
///
/// Every request, response and timeout looks its request up here; an engine has one or a few
/// requests out at a time, so scanning its list costs less than hashing a key. Nothing iterates
/// the table, so its layout never reaches output.
struct InFlightTable {
    private struct Entry {
        var requestID: UInt64
        var request: InFlightRequest
    }

    /// Indexed by `device * 3 + store.slot`; each list in send order.
    private var lists: [[Entry]]
    /// Requests in the table.
    private(set) var count = 0

    init(deviceCount: Int) {
        lists = Array(repeating: [], count: deviceCount * 3)
    }

    var isEmpty: Bool { count == 0 }

    subscript(key: RequestKey) -> InFlightRequest? {
        get {
            let list = Self.list(key)
            return lists[list].first { $0.requestID == key.requestID }?.request
        }
        set {
            let list = Self.list(key)
            let position = lists[list].firstIndex { $0.requestID == key.requestID }
            switch (position, newValue) {
            case (let position?, let request?): lists[list][position].request = request
            case (let position?, nil): lists[list].remove(at: position); count -= 1
            case (nil, let request?): lists[list].append(Entry(requestID: key.requestID, request: request)); count += 1
            case (nil, nil): break
            }
        }
    }

    /// Removes the request, returning what was stored for it.
    mutating func removeValue(forKey key: RequestKey) -> InFlightRequest? {
        let list = Self.list(key)
        guard let position = lists[list].firstIndex(where: { $0.requestID == key.requestID }) else { return nil }
        count -= 1
        return lists[list].remove(at: position).request
    }

    /// Forgets every request of a device: it crashed, so nobody waits for their answers, and a
    /// request its crash cut never reaches the cloud to be answered into the void.
    mutating func removeAll(device: Int32) {
        for slot in 0..<3 {
            count -= lists[Int(device) * 3 + slot].count
            lists[Int(device) * 3 + slot].removeAll()
        }
    }

    private static func list(_ key: RequestKey) -> Int { Int(key.device) * 3 + key.store.slot }
}
