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
    // of what an observer's reads cost (docs/LIBRARY.md "What hosting costs"). No access can
    // overlap another: each method below reads or changes one property at a time and calls out
    // to no other code while it does (the app's code runs between the store's calls, never in them).
    /// The app's own calls since (nil value: removed), over the snapshot.
    @exclusivity(unchecked) private var written: [String: ScenarioValue?] = [:]
    @exclusivity(unchecked) package private(set) var commands: [KVSAppCommand] = []
    /// Keys read, in order, with the write behind each value read.
    @exclusivity(unchecked) package private(set) var reads: [KVSAppRead] = []

    /// - Parameter reads: an empty list whose storage the store's reads reuse (the adapter's,
    ///   from the last notification: a list allocated and grown per notification was about a
    ///   third of what an observer's read cost).
    package init(snapshot: KVSAppSnapshot, reads: consuming [KVSAppRead] = []) {
        self.snapshot = snapshot
        self.reads = reads
    }

    /// The keys read so far, taken out: the store's list is left empty, so a store the app keeps
    /// after its handler returns shares no storage with the platform's.
    package func takeReads() -> [KVSAppRead] {
        var taken: [KVSAppRead] = []
        swap(&taken, &reads)
        return taken
    }

    /// The value of `key`, nil when absent.
    public func object(forKey key: String) -> ScenarioValue? {
        if let own = written[key] { return own }
        guard let entry = snapshot.value(forKey: key) else { return nil }
        // Each key once: a handler reads a few keys, so a scan beats a set.
        if let write = entry.write, !reads.contains(where: { $0.key == key }) { reads.append(KVSAppRead(key: key, write: write)) }
        return PlistConversion.value(entry.value)
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
