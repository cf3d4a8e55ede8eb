import SyncLabProtocol

extension KVSEngine.LocalStore {
    /// The state of `key` (tombstones included), nil when the store has none: the subscript's
    /// lookup for a hosted app's read (`KVSAppSnapshot.value(forKey:)`), made through the
    /// storage's pointers.
    ///
    /// Why not the subscript: each of its reads of the storage's header (`ManagedBuffer.header`, a
    /// class's stored property) is checked for exclusivity at run time, about 125 instructions of
    /// the 215 a read cost; an observer reads every changed key on every device
    /// (docs/HOSTING.md "What hosting costs"). The keys a notification names were just applied,
    /// so the recent numbers find most of them without hashing, as in the subscript.
    @usableFromInline package func appState(forKey key: String) -> KVSKeyState? {
        var noGuess: UInt32 = 0
        return appState(forKey: key, back: &noGuess)
    }

    /// The same, trying first the key applied `back` applications before the newest (0: no
    /// guess), and moving `back` one nearer when that is `key`.
    ///
    /// An app told of a fetch that reads the notification's `n` keys in the notification's order
    /// (an observer's loop over `changedKeys`) reads them in the order the fetch applied them:
    /// starting from `n` back, each read finds its key at the guess, on the lines the fetch just
    /// wrote, with one comparison of names (equal ones compare without a call), instead of a
    /// hash in `places` for all but the last two (docs/HOSTING.md "What hosting costs", eleventh
    /// round). A guess that names another key (an app reading other keys, or in another order; a
    /// key the fetch applied without notifying it) only costs that comparison: the lookup goes on
    /// as without one.
    @usableFromInline package func appState(forKey key: String, back: inout UInt32) -> KVSKeyState? {
        guard let storage else { return nil }
        return storage.withUnsafeMutablePointers { header, values -> KVSKeyState? in
            let count = header.pointee.numberedCount
            let guess = header.pointee.recent.number(back: back)
            // Recognised by its state's name, as the recent numbers below (a state built without
            // one never matches).
            if Int(guess) < count, let value = values[Int(guess)], value.state.key == key {
                back -= 1
                return value.state
            }
            let recent = header.pointee.recent.lastTwo
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
