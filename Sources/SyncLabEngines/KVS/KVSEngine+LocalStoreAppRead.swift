import SyncLabProtocol

extension KVSEngine.LocalStore {
    /// The state of `key` (tombstones included), nil when the store has none: the subscript's
    /// lookup for a hosted app's read (`KVSAppSnapshot.value(forKey:)`), made through the
    /// storage's pointers.
    ///
    /// Why not the subscript: each of its reads of the storage's header (`ManagedBuffer.header`, a
    /// class's stored property) is checked for exclusivity at run time, about 125 instructions of
    /// the 215 a read cost; an observer reads every changed key on every device
    /// (docs/LIBRARY.md "What hosting costs"). The keys a notification names were just applied,
    /// so the recent numbers find most of them without hashing, as in the subscript.
    @usableFromInline package func appState(forKey key: String) -> KVSKeyState? {
        guard let storage else { return nil }
        return storage.withUnsafeMutablePointers { header, values -> KVSKeyState? in
            let count = header.pointee.numberedCount
            let recent = header.pointee.recentNumbers
            // A recently applied key, recognised by its state's name (a state built without one
            // never matches, and the lookup goes on by name).
            if Int(recent.0) < count, let value = values[Int(recent.0)], value.state.key == key { return value.state }
            if Int(recent.1) < count, let value = values[Int(recent.1)], value.state.key == key { return value.state }
            switch header.pointee.places[key] {
            case .numbered(let number)?: return Int(number) < count ? values[Int(number)]?.state : nil
            case .loose(let value)?: return value.state
            case nil: return nil
            }
        }
    }
}
