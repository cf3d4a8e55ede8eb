import SyncLabProtocol

/// Requests sent and not yet answered, as a map from `RequestKey`: per device and service, one
/// request held inline and a short list for any others, instead of one hash table for the world.
///
/// Every request, response and timeout looks its request up here; an engine has one or a few
/// requests out at a time, so scanning its list costs less than hashing a key. The first request
/// of each device and service lies in one flat array: a list of its own (a heap object per
/// device and service, kept after its request left) was a pointer to follow to a cache line of
/// its own at every lookup, at 1,000 devices a miss per request, response and timeout. Nothing
/// iterates the table, so its layout never reaches output.
struct InFlightTable {
    private struct Entry {
        var requestID: UInt64
        var request: InFlightRequest
    }

    /// Indexed by `store.slot * deviceCount + device`: one request of each device and service
    /// (nil: none). Service by service, so one service's entries lie together (40 bytes each): a
    /// run of one service, as the benches are, touches its third of the table only.
    private var first: [Entry?]
    /// At the same index, the device and service's other requests (usually none). Read only
    /// while some list holds one (`moreCount`): a second cache line per lookup otherwise.
    private var more: [[Entry]]
    /// Requests in the `more` lists, all together.
    private var moreCount = 0
    private let deviceCount: Int
    /// Requests in the table.
    private(set) var count = 0

    init(deviceCount: Int) {
        self.deviceCount = deviceCount
        first = Array(repeating: nil, count: deviceCount * 3)
        more = Array(repeating: [], count: deviceCount * 3)
    }

    var isEmpty: Bool { count == 0 }

    subscript(key: RequestKey) -> InFlightRequest? {
        get {
            let list = self.list(key)
            if let entry = first[list], entry.requestID == key.requestID { return entry.request }
            guard moreCount > 0 else { return nil }
            return more[list].first { $0.requestID == key.requestID }?.request
        }
        set {
            let list = self.list(key)
            if first[list]?.requestID == key.requestID {
                if let newValue { first[list]!.request = newValue } else { _ = removeValue(forKey: key) }
                return
            }
            let position = moreCount > 0 ? more[list].firstIndex { $0.requestID == key.requestID } : nil
            switch (position, newValue) {
            case (let position?, let request?): more[list][position].request = request
            case (_?, nil): _ = removeValue(forKey: key)
            case (nil, let request?):
                let entry = Entry(requestID: key.requestID, request: request)
                if first[list] == nil {
                    first[list] = entry
                } else {
                    more[list].append(entry)
                    moreCount += 1
                }
                count += 1
            case (nil, nil): break
            }
        }
    }

    /// Removes the request, returning what was stored for it.
    mutating func removeValue(forKey key: RequestKey) -> InFlightRequest? {
        let list = self.list(key)
        if let entry = first[list], entry.requestID == key.requestID {
            // The inline place takes the next of the others, if any.
            if moreCount > 0 && !more[list].isEmpty {
                first[list] = more[list].removeFirst()
                moreCount -= 1
            } else {
                first[list] = nil
            }
            count -= 1
            return entry.request
        }
        guard moreCount > 0, let position = more[list].firstIndex(where: { $0.requestID == key.requestID }) else { return nil }
        count -= 1
        moreCount -= 1
        return more[list].remove(at: position).request
    }

    /// Forgets every request of a device: it crashed, so nobody waits for their answers, and a
    /// request its crash cut never reaches the cloud to be answered into the void.
    mutating func removeAll(device: Int32) {
        for slot in 0..<3 {
            let list = slot * deviceCount + Int(device)
            count -= (first[list] == nil ? 0 : 1) + more[list].count
            moreCount -= more[list].count
            first[list] = nil
            more[list] = []
        }
    }

    private func list(_ key: RequestKey) -> Int { key.store.slot * deviceCount + Int(key.device) }
}
