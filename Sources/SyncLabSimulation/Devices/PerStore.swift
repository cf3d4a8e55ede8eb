import SyncLabProtocol

/// One value per store, held inline in the device (indexed by `Store.slot`).
///
/// The device kept these as arrays (engine randomness, busy flags, request ids, held pushes):
/// every delivery read and wrote two of them and every send a third, and each array's buffer
/// was a heap block of its own, at 1,000 devices a cache miss for its count (the bounds check)
/// before its element (issue 13, session 10: `makeContext` stalled on `engineRandom`'s count).
struct PerStore<Value> {
    var kvs: Value
    var documents: Value
    var records: Value

    init(kvs: Value, documents: Value, records: Value) {
        self.kvs = kvs; self.documents = documents; self.records = records
    }

    init(repeating value: Value) { self.init(kvs: value, documents: value, records: value) }

    /// Each store's value made by `make`.
    init(_ make: (Store) -> Value) { self.init(kvs: make(.kvs), documents: make(.documents), records: make(.records)) }

    /// The value of the store whose `slot` this is.
    subscript(slot: Int) -> Value {
        get {
            switch slot {
            case 0: return kvs
            case 1: return documents
            default: return records
            }
        }
        set {
            switch slot {
            case 0: kvs = newValue
            case 1: documents = newValue
            default: records = newValue
            }
        }
    }
}

extension PerStore: Sendable where Value: Sendable {}
