internal import SyncLabProtocol
package import SyncLabEngines

/// The device's key-value store as an app uses it, shaped after `NSUbiquitousKeyValueStore`.
/// Values are property-list values written as in scenario files (`{"$data": …}`, `{"$date": …}`).
/// Calls take effect when the app's handler returns, in order, each as one atomic store call.
public final class KeyValueStore {
    /// The store as it stood when the app was told, read on demand.
    private let snapshot: KVSAppSnapshot
    // The mutable state below is unchecked for exclusivity: a class's stored properties are
    // otherwise checked at run time at every access (a thread-local access set), about a fifth
    // of what an observer's reads cost (docs/HOSTING.md "What hosting costs"). No access can
    // overlap another: each method below reads or changes one property at a time and calls out
    // to no other code while it does (the app's code runs between the store's calls, never in them).
    /// The app's own calls since (nil value: removed), over the snapshot.
    @exclusivity(unchecked) private var written: [String: ScenarioValue?] = [:]
    @exclusivity(unchecked) package private(set) var commands: [KVSAppCommand] = []
    /// While the app's handler runs, the platform's buffer of notes for every device's app
    /// (`KVSAppHosting.handle(_:values:device:notingReadsIn:)`): the store appends each value read
    /// straight to it, so no list of reads is made per notification and copied over (that copy was
    /// about a tenth of what hosting an observer cost over the built-in reader: docs/HOSTING.md
    /// "What hosting costs"). The notes from `firstRead` on are this store's reads, in order.
    @exclusivity(unchecked) private var notes: [KVSAppPendingNote]
    @exclusivity(unchecked) private var firstRead: Int
    /// The device whose app reads, named in each note.
    private let device: Int32
    /// Where the next changed key is expected among the store's recently applied keys: how many
    /// applications back from the newest (0: no guess). Told of `n` changed keys, an app that
    /// reads them in the notification's order finds each there, with no hash
    /// (`KVSAppSnapshot.state(forKey:back:)`, docs/HOSTING.md "What hosting costs").
    @exclusivity(unchecked) private var changedKeyBack: UInt32

    /// - Parameters:
    ///   - device: the index of the device whose app reads, for the notes.
    ///   - notes: the buffer the reads are appended to, handed back by `takeNotes()`.
    ///   - changedKeys: how many keys the fetch just applied and the app is told changed (0: the
    ///     app is told of something else), a hint for its reads.
    package init(snapshot: KVSAppSnapshot, device: Int32 = 0, notes: consuming [KVSAppPendingNote] = [], changedKeys: Int = 0) {
        self.snapshot = snapshot
        self.device = device
        changedKeyBack = UInt32(truncatingIfNeeded: changedKeys)
        firstRead = notes.count
        self.notes = notes
    }

    /// The buffer with this store's reads appended, taken out: the store is left with an empty
    /// one, so a store the app keeps after its handler returns shares no storage with the
    /// platform's, and what it reads later is noted nowhere.
    package func takeNotes() -> [KVSAppPendingNote] {
        var taken: [KVSAppPendingNote] = []
        swap(&taken, &notes)
        firstRead = 0
        return taken
    }

    /// The value of `key`, nil when absent.
    public func object(forKey key: String) -> ScenarioValue? {
        // An app that only reads has written nothing: no lookup in the empty dictionary.
        if !written.isEmpty, let own = written[key] { return own }
        // The key's shared state, read where it lies (no value or write copied out first).
        guard let state = snapshot.state(forKey: key, back: &changedKeyBack) else { return nil }
        // Scalars converted in place: binding the plist value first copied it out of the state
        // and destroyed the copy after (two outlined calls, about 35 instructions a read).
        let value: ScenarioValue
        switch state.value {
        case nil: return nil
        case .integer(let number)?: value = .integer(number)
        case .string(let text)?: value = .string(text)
        case .bool(let flag)?: value = .bool(flag)
        case .double(let number)?: value = .double(number)
        case let other?: value = PlistConversion.value(other)
        }
        if let write = state.write {
            let note = KVSAppNote(key: key, write: write, madeHere: false)
            if !hasNoted(note) { notes.append(KVSAppPendingNote(device: device, note: note)) }
        }
        return value
    }

    /// Whether this store noted `note`'s key already (each key is noted once: a key read again
    /// shows the same write, as the snapshot does not change). A handler reads a few keys, so a
    /// scan of its own notes beats a set; the writes are compared first, so another key's note
    /// is told apart without comparing strings (a call into the run time each, about 2% of what
    /// an observer cost over the built-in reader).
    @inline(__always) private func hasNoted(_ note: KVSAppNote) -> Bool {
        var index = firstRead
        while index < notes.count {
            if notes[index].note.hasSameWrite(as: note) && notes[index].note.key == note.key { return true }
            index += 1
        }
        return false
    }

    /// Sets `key`; `nil` (or `.null`) removes it, as `removeObject(forKey:)`. A value that is
    /// not a property list (a `null` inside, a malformed `$data`) is not stored: the real store
    /// raises an exception there.
    public func set(_ value: ScenarioValue?, forKey key: String) {
        guard let value, value != .null else {
            removeObject(forKey: key)
            return
        }
        guard let plist = PlistConversion.plist(value) else { return }
        written[key] = .some(value)
        commands.append(.set(key: key, value: plist))
    }

    /// Removes `key`.
    public func removeObject(forKey key: String) {
        written[key] = .some(nil)
        commands.append(.set(key: key, value: nil))
    }

    /// Persists (already done) and fetches. Always true, as on a device with iCloud.
    @discardableResult
    public func synchronize() -> Bool {
        commands.append(.synchronize)
        return true
    }

    /// Every key and value (reads every key).
    public var dictionaryRepresentation: [String: ScenarioValue] {
        var keys = snapshot.keys
        for key in written.keys.sorted() where !keys.contains(key) { keys.append(key) }
        var result: [String: ScenarioValue] = [:]
        for key in keys { if let value = object(forKey: key) { result[key] = value } }
        return result
    }
}
