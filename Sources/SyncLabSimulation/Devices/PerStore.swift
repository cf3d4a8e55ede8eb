import SyncLabProtocol

/// One value per store (KVS, documents, records), held inline in the device.
///
/// Not an array: a device's per-store arrays (its engine randomness, busy flags, request ids,
/// held pushes) were four heap objects of their own, and every delivery read or wrote one or two
/// of them, each a cache line of its own at 1,000 devices (plus a uniqueness check of its buffer
/// at every write). Inline, they lie in the device's own memory.
struct PerStore<Value> {
    var kvs: Value
    var documents: Value
    var records: Value

    init(kvs: Value, documents: Value, records: Value) {
        self.kvs = kvs; self.documents = documents; self.records = records
    }

    /// The same value for every store.
    init(repeating value: Value) { self.init(kvs: value, documents: value, records: value) }

    /// Each store's value made by `make`.
    init(_ make: (Store) -> Value) { self.init(kvs: make(.kvs), documents: make(.documents), records: make(.records)) }

    subscript(store: Store) -> Value {
        get {
            switch store {
            case .kvs: return kvs
            case .documents: return documents
            case .records: return records
            }
        }
        // A plain setter, not `_modify`: every value here is a few bytes, and the coroutine a
        // `_modify` compiles to was a call, a resume and a return per write (after every
        // delivery: the busy flag, the engine's randomness, the request id sent).
        set {
            switch store {
            case .kvs: kvs = newValue
            case .documents: documents = newValue
            case .records: records = newValue
            }
        }
    }
}
