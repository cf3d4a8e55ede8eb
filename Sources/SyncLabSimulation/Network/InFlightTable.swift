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

    /// Indexed by `device * 3 + store.slot`: one request of each device and service (nil: none).
    private var first: [Entry?]
    /// At the same index, the device and service's other requests (usually none).
    private var more: [[Entry]]
    /// Requests in the table.
    private(set) var count = 0

    init(deviceCount: Int) {
        first = Array(repeating: nil, count: deviceCount * 3)
        more = Array(repeating: [], count: deviceCount * 3)
    }

    var isEmpty: Bool { count == 0 }

    subscript(key: RequestKey) -> InFlightRequest? {
        get {
            let list = Self.list(key)
            if let entry = first[list], entry.requestID == key.requestID { return entry.request }
            return more[list].first { $0.requestID == key.requestID }?.request
        }
        set {
            let list = Self.list(key)
            if first[list]?.requestID == key.requestID {
                if let newValue { first[list]!.request = newValue } else { _ = removeValue(forKey: key) }
                return
            }
            let position = more[list].firstIndex { $0.requestID == key.requestID }
            switch (position, newValue) {
            case (let position?, let request?): more[list][position].request = request
            case (_?, nil): _ = removeValue(forKey: key)
            case (nil, let request?):
                let entry = Entry(requestID: key.requestID, request: request)
                if first[list] == nil { first[list] = entry } else { more[list].append(entry) }
                count += 1
            case (nil, nil): break
            }
        }
    }

    /// Removes the request, returning what was stored for it.
    mutating func removeValue(forKey key: RequestKey) -> InFlightRequest? {
        let list = Self.list(key)
        if let entry = first[list], entry.requestID == key.requestID {
            // The inline place takes the next of the others, if any.
            first[list] = more[list].isEmpty ? nil : more[list].removeFirst()
            count -= 1
            return entry.request
        }
        guard let position = more[list].firstIndex(where: { $0.requestID == key.requestID }) else { return nil }
        count -= 1
        return more[list].remove(at: position).request
    }

    /// Forgets every request of a device: it crashed, so nobody waits for their answers, and a
    /// request its crash cut never reaches the cloud to be answered into the void.
    mutating func removeAll(device: Int32) {
        for slot in 0..<3 {
            let list = Int(device) * 3 + slot
            count -= (first[list] == nil ? 0 : 1) + more[list].count
            first[list] = nil
            more[list] = []
        }
    }

    private static func list(_ key: RequestKey) -> Int { Int(key.device) * 3 + key.store.slot }
}
